import AppiumSimulator
import ArgumentParser
import Foundation
import Hummingbird
import Logging

/// `petspot appium`: the simulated iPhone behind an Appium-compatible WebDriver server.
struct AppiumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appium",
        abstract: "Serve the simulated iPhone running the app to Appium clients (W3C WebDriver, XCUITest commands).",
        discussion: """
            The whole app runs on the simulated iPhone, on the wall clock, against --server or a listing \
            server started in this process (a temporary SQLite database with \(ScenarioServer.demoPetCount) \
            demo pets). Create a session with platformName iOS, appium:automationName XCUITest and \
            appium:bundleId org.petspot.PetSpot; set the phone's permissions with appium:permissions as \
            the XCUITest driver takes them, and what only the simulated iPhone can set with \
            petspot:device and petspot:network (the scenario file's objects). One session at a time. \
            docs/e2e.md lists every command and runs the E2E suite against it (scripts/e2e.sh).
            """
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "TCP port (0 picks a free one; 4723 is Appium's own).")
    var port = 4723

    @Option(help: "Base URL of a running pets server, e.g. http://127.0.0.1:8080.")
    var server: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        _ = try ScenarioServer.url(server)
    }

    func run() async throws {
        let host = host
        let port = port
        try await ScenarioServer.withServer(server.flatMap(URL.init(string:))) { listing in
            let driver = await AppiumDriver(serverURL: listing)
            var logger = Logger(label: "petspot.appium")
            logger.logLevel = .warning
            let app = buildAppiumApplication(driver: driver, host: host, port: port, logger: logger) { bound in
                // Written at once (print's buffer would hold it back from a script reading a pipe).
                let line = "petspot appium: listening on http://\(host):\(bound) (listings from \(listing.absoluteString))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
            try await app.runService()
            await driver.shutdown()
        }
    }
}
