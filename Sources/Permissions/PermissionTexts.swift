import Foundation
import Localization

/// Whose words the permissions screen speaks: why the app asks, what it does and does not do with
/// each permission, and the app's name in hints and errors.
///
/// The screen is shared, its voice is not: PetSpot asks for location to list pets near the person,
/// Paint My Town asks for location, Motion and Health for a walk. Each app's texts are its own table
/// (`PetSpot.strings`, `PaintMyTown.strings`); titles, statuses and buttons, which iOS names the same
/// in every app, stay in `Localizable.strings`. A table has texts only for the permissions its app
/// has a feature for.
public struct PermissionTexts: Sendable {
    let table: StringTable

    public init(table: StringTable) {
        self.table = table
    }

    /// PetSpot's words: location only.
    public static let petSpot = PermissionTexts(table: StringTable(name: "PetSpot", bundle: .module))
    /// Paint My Town's words: location, Motion & Fitness and Health, for a walk.
    public static let paintMyTown = PermissionTexts(table: StringTable(name: "PaintMyTown", bundle: .module))

    func text(_ key: String, _ localizer: Localizer, _ arguments: String...) -> String {
        StringTable.format(table.string(key, localizer.language), arguments)
    }

    /// Whether the table has `key` (in English, which every language's table matches).
    func has(_ key: String) -> Bool {
        table.entries(.english).strings[key] != nil
    }

    /// The line above the cards.
    public func intro(_ localizer: Localizer = .system) -> String { text("permissions_intro", localizer) }
    /// The VoiceOver hint of Done: where it returns to.
    public func doneHint(_ localizer: Localizer = .system) -> String { text("permissions_done_hint", localizer) }

    /// One line on `permission`'s card that says why the app asks.
    public func rationale(_ permission: Permission, _ localizer: Localizer = .system) -> String {
        text("permission_\(permission.keyPrefix)_rationale", localizer)
    }

    /// What "Learn more" of `permission` shows: what the app does, what it does not do, and how the
    /// data is treated. The lists are as long as the table's numbered keys run.
    public func details(_ permission: Permission, _ localizer: Localizer = .system) -> PermissionDetails {
        let prefix = permission.keyPrefix
        return PermissionDetails(
            whatWeDo: numbered("\(prefix)_do_", localizer),
            whatWeDoNotDo: numbered("\(prefix)_do_not_", localizer),
            privacy: text("\(prefix)_privacy", localizer)
        )
    }

    private func numbered(_ stem: String, _ localizer: Localizer) -> [String] {
        var lines: [String] = []
        while has("\(stem)\(lines.count + 1)") {
            lines.append(text("\(stem)\(lines.count + 1)", localizer))
        }
        return lines
    }
}
