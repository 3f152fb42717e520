import ArgumentParser
import DeviceInterfaces
import Foundation
import Permissions

/// `petspot check-plist`: checks an app's Info.plist (and entitlements, and what its target links)
/// against the permissions its features use.
struct CheckPlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-plist",
        abstract: "Check that an app asks for exactly the permissions its features use.",
        discussion: """
            With --app, the app is checked both ways against its features (the map is \
            `AppManifest` in DeviceInterfaces): every purpose string and entitlement a feature needs is \
            there, and none is there that no feature uses (App Review rejects both); an app whose features need \
            an entitlement must be given its entitlements file. With --project, \
            the app's target in an XcodeGen project.yml is checked too: every framework it links that \
            needs a purpose string has it and is used by a feature. With --permissions instead of \
            --app, only the named permissions' keys are checked, one way (all four when neither is given).

            Reads property lists in XML or binary form. Exits 0 when all is well, 1 when something is \
            missing, empty or unused (each with what iOS or App Review then does), 2 when a file cannot \
            be read.

            Examples:
              petspot check-plist App/PetSpot/Info.plist --app petspot --project App/project.yml
              petspot check-plist App/PaintMyTown/Info.plist --app paintmytown \\
                  --entitlements App/PaintMyTown/PaintMyTown.entitlements
            """
    )

    @Argument(help: "The Info.plist to check.")
    var path: String

    @Option(help: ArgumentHelp(
        "The app whose features decide what it may ask for: \(AppManifest.all.map(\.id).joined(separator: ", ")).",
        valueName: "name"
    ))
    var app: String?

    @Option(help: ArgumentHelp(
        "Instead of --app: comma-separated permissions to check one way (location, always, motion, health).",
        valueName: "list"
    ))
    var permissions: String?

    @Option(help: "The app's entitlements plist, to check com.apple.developer.healthkit.")
    var entitlements: String?

    @Option(help: ArgumentHelp(
        "With --app: the XcodeGen project.yml whose target for the app is checked for linked frameworks.",
        valueName: "project.yml"
    ))
    var project: String?

    func validate() throws {
        switch (app, permissions) {
        case (nil, nil):
            if project != nil { throw ValidationError("--project needs --app: the target checked is the app's") }
        case (.some, .some):
            throw ValidationError("give --app or --permissions, not both: an app's permissions come from its features")
        case (.some(let name), nil):
            guard AppManifest.named(name) != nil else {
                throw ValidationError("unknown app '\(name)'; use one of: \(AppManifest.all.map(\.id).joined(separator: ", "))")
            }
        case (nil, .some(let list)):
            if project != nil { throw ValidationError("--project needs --app: the target checked is the app's") }
            do {
                _ = try PlistPermissionScope.parseList(list)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func run() throws {
        let infoPlist: PropertyList
        let entitlementsList: PropertyList?
        do {
            infoPlist = try PropertyList(contentsOf: URL(fileURLWithPath: path))
            entitlementsList = try entitlements.map { try PropertyList(contentsOf: URL(fileURLWithPath: $0)) }
        } catch {
            throw CommandError("check-plist: \(error)", exitCode: 2)
        }
        let checker = PlistRequirementsChecker()
        let report: PlistCheckReport
        if let manifest = app.flatMap(AppManifest.named) {
            let target = try project.map { try Self.target(manifest.xcodeTarget, inProjectAt: $0) }
            report = checker.check(
                infoPlist: infoPlist,
                entitlements: entitlementsList,
                app: manifest,
                linkedFrameworks: target.map(LinkedFramework.linked(by:))
            )
            print("Info.plist: \(path) (\(infoPlist.format.rawValue))")
            if let entitlements { print("Entitlements: \(entitlements)") }
            if let project { print("Project: \(project), target \(manifest.xcodeTarget)") }
        } else {
            let scopes = (try? PlistPermissionScope.parseList(permissions ?? "")) ?? Set(PlistPermissionScope.allCases)
            report = checker.check(infoPlist: infoPlist, entitlements: entitlementsList, scopes: scopes)
            print("Info.plist: \(path) (\(infoPlist.format.rawValue))")
            if let entitlements { print("Entitlements: \(entitlements)") }
        }
        print(report.rendered())
        if report.hasProblems { throw ExitCode(1) }
    }

    static func target(_ name: String, inProjectAt path: String) throws -> XcodeGenTarget {
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw CommandError("check-plist: cannot read \(path): \(error.localizedDescription)", exitCode: 2)
        }
        do {
            return try XcodeGenTarget(named: name, in: text)
        } catch {
            throw CommandError("check-plist: \(path): \(error)", exitCode: 2)
        }
    }
}
