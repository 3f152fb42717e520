import Foundation

/// Property list files for the checker tests, written as XML text or produced as binary by Foundation.
enum PlistFixtures {
    /// The repository's `App/` folder.
    static let appFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("App")
        .appendingPathComponent("PetSpot")

    /// Every key PetSpot needs, with texts.
    static var completeInfo: [String: Any] { [
        "CFBundleName": "PetSpot",
        "NSLocationWhenInUseUsageDescription": "Shows pets near you.",
        "NSLocationAlwaysAndWhenInUseUsageDescription": "Only while you use the app.",
        "NSLocationTemporaryUsageDescriptionDictionary": ["NearbyPets": "Exact distances."],
        "NSMotionUsageDescription": "Counts walks.",
        "NSHealthShareUsageDescription": "Reads steps.",
        "NSHealthUpdateUsageDescription": "Saves walks.",
    ] }

    static func info(without keys: String..., replacing replacements: [String: Any] = [:]) -> [String: Any] {
        var info = completeInfo
        for key in keys { info[key] = nil }
        info.merge(replacements) { _, new in new }
        return info
    }

    static func xml(_ dictionary: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
    }

    static func binary(_ dictionary: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
    }

    /// Writes `data` to a new file in a fresh temporary folder and returns its URL.
    static func write(_ data: Data, name: String = "Info.plist") throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("petspot-plist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }
}
