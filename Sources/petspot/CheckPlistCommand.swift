import ArgumentParser
import DeviceInterfaces
import Foundation
import Permissions

/// `petspot check-plist`: checks an app's Info.plist (and entitlements) for what its permissions need.
struct CheckPlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-plist",
        abstract: "Report usage descriptions (and the HealthKit entitlement) an app's permissions need but lacks.",
        discussion: """
            Reads an Info.plist, XML or binary. Exits 0 when everything needed is there, 1 when something \
            is missing or empty (each with what iOS then does), 2 when a file cannot be read.
            """
    )

    @Argument(help: "The Info.plist to check.")
    var path: String

    @Option(help: "Comma-separated permissions the app asks for: location, always, motion, health.")
    var permissions = PlistPermissionScope.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "The app's entitlements plist, to check com.apple.developer.healthkit.")
    var entitlements: String?

    func validate() throws {
        do {
            _ = try PlistPermissionScope.parseList(permissions)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let scopes = (try? PlistPermissionScope.parseList(permissions)) ?? Set(PlistPermissionScope.allCases)
        let infoPlist: PropertyList
        let entitlementsList: PropertyList?
        do {
            infoPlist = try PropertyList(contentsOf: URL(fileURLWithPath: path))
            entitlementsList = try entitlements.map { try PropertyList(contentsOf: URL(fileURLWithPath: $0)) }
        } catch {
            throw CommandError("check-plist: \(error)", exitCode: 2)
        }
        let report = PlistRequirementsChecker().check(infoPlist: infoPlist, entitlements: entitlementsList, scopes: scopes)
        print("Info.plist: \(path) (\(infoPlist.format.rawValue))")
        if let entitlements { print("Entitlements: \(entitlements)") }
        print(report.rendered())
        if report.hasProblems { throw ExitCode(1) }
    }
}
