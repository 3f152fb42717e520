import DeviceInterfaces
import Foundation

extension PlistPermissionScope {
    /// Parses a comma-separated list such as `location,motion,health`.
    /// - Throws: ``UnknownPermissionScopes`` naming every unknown entry and the known ones.
    public static func parseList(_ list: String) throws(UnknownPermissionScopes) -> Set<PlistPermissionScope> {
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let unknown = names.filter { PlistPermissionScope(rawValue: $0) == nil }
        guard unknown.isEmpty, !names.isEmpty else { throw UnknownPermissionScopes(names: unknown) }
        return Set(names.compactMap(PlistPermissionScope.init(rawValue:)))
    }
}

/// Permission names `check-plist` does not know.
public struct UnknownPermissionScopes: Error, Sendable, Equatable, CustomStringConvertible {
    public var names: [String]

    public init(names: [String]) {
        self.names = names
    }

    public var description: String {
        let known = PlistPermissionScope.allCases.map(\.rawValue).joined(separator: ", ")
        return names.isEmpty
            ? "no permission named; use one or more of: \(known)"
            : "unknown permission \(names.joined(separator: ", ")); use one or more of: \(known)"
    }
}
