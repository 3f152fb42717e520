import DeviceInterfaces
import Foundation
import Permissions
import Testing

/// What links a framework that needs a purpose string is read from the source tree: a Swift `import`
/// links its framework, so the map `check-plist` trusts must be what the sources import.
@Suite struct LinkedFrameworkTests {
    static let root = PlistFixtures.appFolder.deletingLastPathComponent().deletingLastPathComponent()
    static let permissionFrameworks: Set<String> = ["CoreLocation", "CoreMotion", "HealthKit"]

    /// The permission frameworks the Swift files directly in `folder` import.
    static func imports(in folder: URL) throws -> Set<String> {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var found: Set<String> = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    permissionFrameworks.contains(String(words[index + 1]))
                {
                    found.insert(String(words[index + 1]))
                }
            }
        }
        return found
    }

    @Test func givenEveryPackageTarget_whenItsImportsAreRead_thenTheyAreWhatCheckPlistAssumes() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        var imported: [String: Set<String>] = [:]
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let frameworks = try Self.imports(in: sources.appendingPathComponent(target))
            if !frameworks.isEmpty { imported[target] = frameworks }
        }
        #expect(imported == LinkedFramework.importedByPackageProduct.mapValues(Set.init))
    }

    @Test func givenEachAppHost_whenItsImportsAreRead_thenItImportsOnlyWhatItsFeaturesUse() throws {
        for app in AppManifest.all {
            let folder = Self.root.appendingPathComponent("App").appendingPathComponent(app.xcodeTarget)
            guard FileManager.default.fileExists(atPath: folder.path) else { continue }
            let allowed = Set(app.scopes.map(\.framework))
            #expect(try Self.imports(in: folder).isSubset(of: allowed), "\(app.id)")
        }
    }
}
