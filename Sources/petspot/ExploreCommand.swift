import ArgumentParser
import Foundation
import ScenarioRunner

/// `petspot explore`: every sequence of a person's actions on both screens, played and checked.
struct ExploreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Play every sequence of actions on both screens on the simulated iPhone and check the app's invariants.",
        discussion: """
            From each starting location permission (never asked, denied, While Using), on iOS 17 (the \
            location manager's calls) and iOS 26 (service sessions and live updates), plays every \
            sequence of up to --depth of these actions after launch, one second apart: open the \
            permissions screen, tap its location card's Continue (Allow, or Allow Always), answer iOS's alert \
            (Allow While Using, Allow Once, Don't Allow, Change to Always Allow, Keep Only While Using), close the screen, leave the app, \
            come back, and allow or deny location in Settings. A sequence with a step that cannot \
            happen is dropped. Each run's event log must show that no request was left waiting, that \
            no alert showed again once answered, that the startup screen and the app-wide state \
            agree with the phone once the app is in use, that no location was obtained while not \
            allowed, and that the popup appeared only with a launch's first status check. Exits 1 on \
            the first broken invariant.

            With --app paintmytown it explores Paint My Town instead, from nothing asked and from \
            everything allowed, actions 20 seconds apart while the person walks: Done and Permissions, \
            each card's Continue, iOS's alerts, Start, Pause, Resume and End, leaving the app and coming \
            back, iOS ending it, launching it, and location or Health changed in Settings. Each run must \
            show that no walk started or went on, and no route point was taken, while location was not \
            allowed; that no workout was saved without permission to save workouts; that each walk's \
            distance is the sum of its segments and no more than the person walked; and that every \
            walk that ended was kept and answered for by Health once.
            """
    )

    enum App: String, ExpressibleByArgument, CaseIterable {
        case petspot, paintmytown
    }

    @Option(help: "The app to explore: petspot or paintmytown.")
    var app = App.petspot

    @Option(help: "The longest sequence of actions after launch (1–6; each level multiplies the runs by about three, four for Paint My Town).")
    var depth = 4

    @Option(help: "Base URL of a running pets server instead of the in-process one.")
    var server: String?

    func validate() throws {
        guard (1...6).contains(depth) else { throw ValidationError("--depth must be from 1 to 6, not \(depth)") }
        _ = try ScenarioServer.url(server)
    }

    func run() async throws {
        let serverURL = server.flatMap(URL.init(string:))
        if app == .paintmytown {
            try await explorePaintMyTown(depth: depth, serverURL: serverURL)
            return
        }
        let depth = depth
        let report = try await ProgressLine.show("exploring PetSpot to depth \(depth)") { line in
            try await AppExploration.explore(depth: depth) { scenarios in
                defer { line.advance(by: scenarios.count) }
                line.phase("\(scenarios.count) more sequences")
                return try await ScenarioServer.run(scenarios, serverURL: serverURL)
            }
        }
        print(
            "explored: \(report.played) sequences of 1…\(depth) actions played (\(report.grantsOnPermissionsScreen) with location "
                + "granted on the permissions screen), \(report.impossible) impossible ones dropped"
        )
        if let finding = report.findings.first {
            throw CommandError("invariant broken: \(finding) (\(report.findings.count) finding(s) in all)", exitCode: 1)
        }
        print("invariants held in every sequence")
    }

    private func explorePaintMyTown(depth: Int, serverURL: URL?) async throws {
        let report = try await ProgressLine.show("exploring Paint My Town to depth \(depth)") { line in
            try await WalkExploration.explore(depth: depth) { scenarios in
                defer { line.advance(by: scenarios.count) }
                line.phase("\(scenarios.count) more sequences")
                return try await ScenarioServer.run(scenarios, serverURL: serverURL)
            }
        }
        print(
            "explored Paint My Town: \(report.played) sequences of 1…\(depth) actions played (\(report.walksEnded) with a walk "
                + "ended), \(report.impossible) impossible ones dropped"
        )
        if let finding = report.findings.first {
            throw CommandError("invariant broken: \(finding) (\(report.findings.count) finding(s) in all)", exitCode: 1)
        }
        print("invariants held in every sequence")
    }
}
