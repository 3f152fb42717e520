import DeviceInterfaces
import Foundation
import Localization

/// The permissions screen's shared texts: `Localizable.strings` of this module, in every
/// ``AppLanguage``. What each app says in its own words is its ``PermissionTexts``.
public enum PermissionsL10n {
    /// This module's table.
    public static let table = StringTable(name: "Localizable", bundle: .module)

    static func text(_ key: String, _ localizer: Localizer, _ arguments: String...) -> String {
        StringTable.format(table.string(key, localizer.language), arguments)
    }

    /// The screen's title.
    public static func title(_ localizer: Localizer = .system) -> String { text("permissions_title", localizer) }
    /// "Done" (its VoiceOver hint is the app's: ``PermissionTexts/doneHint(_:)``).
    public static func doneButton(_ localizer: Localizer = .system) -> String { text("permissions_done_button", localizer) }
    /// The VoiceOver hint of the Done button of a permission's details, which returns to the cards.
    public static func detailDoneHint(_ localizer: Localizer = .system) -> String { text("detail_done_hint", localizer) }
    /// The detail's three headings.
    public static func whatWeDoHeading(_ localizer: Localizer = .system) -> String { text("detail_what_we_do", localizer) }
    public static func whatWeDoNotDoHeading(_ localizer: Localizer = .system) -> String { text("detail_what_we_do_not_do", localizer) }
    public static func privacyHeading(_ localizer: Localizer = .system) -> String { text("detail_privacy", localizer) }

    /// A Health data type as the Health app names it.
    public static func name(of type: HealthDataType, _ localizer: Localizer = .system) -> String {
        let key =
            switch type {
            case .workout: "health_type_workout"
            case .workoutRoute: "health_type_workout_route"
            case .stepCount: "health_type_step_count"
            case .distanceWalkingRunning: "health_type_distance_walking_running"
            case .activeEnergyBurned: "health_type_active_energy_burned"
            }
        return text(key, localizer)
    }
}

extension Permission {
    /// The prefix of this permission's keys in the table.
    var keyPrefix: String {
        switch self {
        case .location: "location"
        case .motion: "motion"
        case .healthKit: "health"
        }
    }

    /// The name shown on the permission's card, in iOS's own words ("Motion & Fitness").
    public func title(_ localizer: Localizer = .system) -> String {
        PermissionsL10n.text("permission_\(keyPrefix)_title", localizer)
    }
}

extension PermissionRequestError {
    /// What the permissions screen says about the error, in `localizer`'s language and the app's words.
    public func message(_ texts: PermissionTexts, _ localizer: Localizer = .system) -> String {
        switch self {
        case .missingUsageDescription(let permission, let keys):
            texts.text("error_missing_usage_description", localizer, permission.title(localizer), keys.joined(separator: ", "))
        case .systemError(let permission, let message):
            PermissionsL10n.text("error_system", localizer, permission.title(localizer), message)
        }
    }
}
