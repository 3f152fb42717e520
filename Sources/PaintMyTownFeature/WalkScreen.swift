import Foundation
import Localization
import Permissions
import WalkFeature

/// Paint My Town's texts: `Localizable.strings` of this module, in every ``AppLanguage``.
public enum PaintMyTownL10n {
    /// This module's table.
    public static let table = StringTable(name: "Localizable", bundle: .module)

    /// The app's name, as its home-screen icon and iOS's alerts show it (the same in every language).
    public static let appName = "Paint My Town"
}

/// What the walk screen shows, in the person's language: read from the app's state, so that the
/// SwiftUI view and the simulated iPhone's element tree show the same.
public struct WalkScreen: Equatable, Sendable {
    /// The screen's buttons for the walk, in the order they show.
    public enum Control: String, Sendable, CaseIterable {
        case start, pause, resume, end
    }

    public var title: String
    public var permissionsButton: String
    public var status: String
    /// While a walk is under way.
    public var distance: String?
    /// While a walk that counts steps is under way.
    public var steps: String?
    public var notice: String?
    public var lastWalk: String?
    public var health: String?
    public var controls: [Control]
    public var controlTitles: [Control: String]

    @MainActor
    public init(_ app: PaintMyTownModel) {
        let localizer = app.localizer
        func text(_ key: String, _ arguments: String...) -> String {
            StringTable.format(PaintMyTownL10n.table.string(key, localizer.language), arguments)
        }
        func kilometres(_ metres: Double) -> String {
            localizer.distance(Measurement(value: metres, unit: .meters), fractionDigits: 2)
        }
        let walk = app.walk.state
        title = PaintMyTownL10n.appName
        permissionsButton = text("walk_permissions_button")
        controlTitles = Dictionary(uniqueKeysWithValues: Control.allCases.map { ($0, text("walk_\($0.rawValue)")) })
        switch walk.phase {
        case .ready, .ended:
            status = text("walk_status_ready")
            controls = [.start]
        case .recording:
            status = text("walk_status_recording")
            controls = [.pause, .end]
        case .paused(let reason):
            status = text(reason == .stationary ? "walk_status_paused_stationary" : "walk_status_paused_person")
            controls = [.resume, .end]
        }
        distance = walk.isUnderWay ? text("walk_distance", kilometres(walk.distanceMetres)) : nil
        steps = walk.isUnderWay ? walk.steps.map { text("walk_steps", localizer.number($0)) } : nil
        // Only while location is still not allowed: allowed since, Start works again.
        if app.walkRefusal == .locationNotAuthorized, app.permissions.state(for: .location) != .authorized {
            notice = text("walk_notice_location")
        } else if walk.isUnderWay, !walk.autoPause {
            notice = text("walk_notice_no_motion")
        } else {
            notice = nil
        }
        if let last = app.walk.walks.last, !walk.isUnderWay {
            lastWalk = text(
                "walk_last", kilometres(last.distanceMetres), localizer.number(last.newCells), localizer.number(walk.painted.count))
            health =
                switch last.savedToHealth {
                case nil: text("walk_health_saving")
                case true?: text("walk_health_saved")
                case false?: text("walk_health_not_saved")
                }
        } else {
            lastWalk = nil
            health = nil
        }
    }
}
