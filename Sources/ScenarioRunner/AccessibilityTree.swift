import DeviceSimulator
import Localization
import PaintMyTownFeature
import Permissions
import PetSpotDomain
import StartupFeature

/// One element of what the simulated iPhone shows, as XCUITest's accessibility tree describes it.
///
/// The tree is built from the state the SwiftUI views in `CoreUI`, `AppUI` and `PaintMyTownUI` render (the startup view model's
/// content, popup and banners, the permissions screen's cards) with the same identifier constants,
/// so that an element an E2E test finds here is the element the real app shows.
public struct AccessibilityElement: Sendable, Equatable {
    /// XCUITest's element types, by the names Appium reports (`XCUIElementTypeButton`, …).
    public enum Kind: String, Sendable, CaseIterable {
        case application = "XCUIElementTypeApplication"
        case window = "XCUIElementTypeWindow"
        case other = "XCUIElementTypeOther"
        case navigationBar = "XCUIElementTypeNavigationBar"
        case button = "XCUIElementTypeButton"
        case staticText = "XCUIElementTypeStaticText"
        case collectionView = "XCUIElementTypeCollectionView"
        case cell = "XCUIElementTypeCell"
        case activityIndicator = "XCUIElementTypeActivityIndicator"
        case scrollView = "XCUIElementTypeScrollView"
        case alert = "XCUIElementTypeAlert"
        case searchField = "XCUIElementTypeSearchField"
    }

    /// What tapping the element does.
    public enum Tap: Sendable, Equatable {
        /// A step of the scenario format (the log records it as a scenario step would be).
        case step(Scenario.Action)
        /// A button of the system alert on screen, by the label iOS shows.
        case alertButton(String)
        /// The "Learn more" sheet's Done button (no log line: nothing but the sheet changes).
        case closeDetail
        /// "Choose a Place" in the listing's header: the picker opens (no log line).
        case openPlacePicker
        /// The picker's Close (no log line).
        case closePlacePicker
    }

    public var kind: Kind
    /// The accessibility identifier, when the view sets one.
    public var identifier: String?
    public var label: String
    public var value: String?
    public var isEnabled: Bool
    public var tap: Tap?
    /// Whether typing into it is a step: a search field, whose `value` is what is typed so far.
    public var acceptsText = false
    public var children: [AccessibilityElement]

    public init(
        _ kind: Kind,
        identifier: String? = nil,
        label: String = "",
        value: String? = nil,
        isEnabled: Bool = true,
        tap: Tap? = nil,
        children: [AccessibilityElement] = []
    ) {
        self.kind = kind
        self.identifier = identifier
        self.label = label
        self.value = value
        self.isEnabled = isEnabled
        self.tap = tap
        self.children = children
    }

    /// XCUITest's `name`: the identifier when there is one, else the label.
    public var name: String { identifier ?? label }

    /// Every element of the tree, this one first, depth first.
    public var allElements: [AccessibilityElement] {
        [self] + children.flatMap(\.allElements)
    }

    static func text(_ text: String, identifier: String? = nil) -> Self {
        Self(.staticText, identifier: identifier, label: text, value: text)
    }
}

/// The labels iOS shows on the buttons of its alerts (with iOS's typographic apostrophe: "Don’t Allow").
extension SystemAlertButton {
    public var label: String {
        switch self {
        case .allowOnce: "Allow Once"
        case .allowWhileUsing: "Allow While Using App"
        case .dontAllow: "Don’t Allow"
        case .keepOnlyWhileUsing: "Keep Only While Using"
        case .changeToAlwaysAllow: "Change to Always Allow"
        case .ok: "OK"
        case .healthTurnOnAll: "Turn On All"
        case .healthAllow: "Allow"
        default: rawValue
        }
    }
}

extension SystemAlert {
    /// The alert's title as iOS words it, for the app called `app`.
    public func title(app: String = "PetSpot") -> String {
        switch kind {
        case .locationWhenInUse: "Allow “\(app)” to use your location?"
        case .locationAlwaysUpgrade: "Allow “\(app)” to also use your location even when you are not using the app?"
        case .locationTemporaryFullAccuracy: "Allow “\(app)” to use your precise location once?"
        case .motionActivity: "“\(app)” Would Like to Access Your Motion & Fitness Activity"
        case .healthAccess: "Health Access"
        default: kind.rawValue
        }
    }
}

/// Builds the tree of the app in front.
@MainActor
enum AccessibilityTree {
    static let appName = "PetSpot"

    /// PetSpot's tree: its screen, with iOS's alert over it. Empty when the app is not in front.
    static func build(app: AppModelView?, alert: SystemAlert?, usageDescription: String) -> AccessibilityElement {
        build(
            appName: appName,
            screen: app.map { $0.permissionsScreen.map(permissionsSheet) ?? startupScreen($0.startup) },
            alert: alert,
            usageDescription: usageDescription
        )
    }

    /// Paint My Town's tree: the permissions screen (the onboarding first) or the walk screen.
    static func build(walkApp: PaintMyTownModel?, alert: SystemAlert?, usageDescription: String) -> AccessibilityElement {
        build(
            appName: PaintMyTownL10n.appName,
            screen: walkApp.map { $0.permissionsScreen.map(permissionsSheet) ?? walkScreen(WalkScreen($0)) },
            alert: alert,
            usageDescription: usageDescription
        )
    }

    private static func build(
        appName: String, screen: [AccessibilityElement]?, alert: SystemAlert?, usageDescription: String
    ) -> AccessibilityElement {
        let window = AccessibilityElement(.window, children: screen ?? [])
        var root = AccessibilityElement(.application, label: appName, children: [window])
        if let alert {
            let title = alert.title(app: appName)
            let buttons = alert.buttons.map { AccessibilityElement(.button, label: $0.label, tap: .alertButton($0.label)) }
            root.children.append(AccessibilityElement(
                .alert,
                label: title,
                children: [.text(title), .text(usageDescription)] + buttons
            ))
        }
        return root
    }

    private typealias WalkID = WalkAccessibilityIdentifiers

    /// Paint My Town's walk screen (`WalkView`).
    private static func walkScreen(_ screen: WalkScreen) -> [AccessibilityElement] {
        var elements: [AccessibilityElement] = [
            AccessibilityElement(.navigationBar, label: screen.title, children: [
                AccessibilityElement(.button, identifier: WalkID.permissions, label: screen.permissionsButton,
                                     tap: .step(.openPermissions)),
            ]),
            .text(screen.status, identifier: WalkID.status),
        ]
        if let distance = screen.distance { elements.append(.text(distance, identifier: WalkID.distance)) }
        if let steps = screen.steps { elements.append(.text(steps, identifier: WalkID.steps)) }
        if let notice = screen.notice { elements.append(.text(notice, identifier: WalkID.notice)) }
        if let last = screen.lastWalk { elements.append(.text(last, identifier: WalkID.lastWalk)) }
        if let health = screen.health { elements.append(.text(health, identifier: WalkID.health)) }
        for control in screen.controls {
            let action: Scenario.Action =
                switch control {
                case .start: .startWalk
                case .pause: .pauseWalk
                case .resume: .resumeWalk
                case .end: .endWalk
                }
            elements.append(AccessibilityElement(
                .button, identifier: WalkID.control(control), label: screen.controlTitles[control] ?? control.rawValue,
                tap: .step(action)
            ))
        }
        return elements
    }

    private typealias ListID = AccessibilityIdentifiers.AnimalList
    private typealias PopupID = AccessibilityIdentifiers.PermissionPopup
    private typealias CardID = PermissionsAccessibilityIdentifiers

    /// `AnimalListView`: under the popup the listing is hidden from accessibility, as there.
    private static func startupScreen(_ screen: AnimalListViewModel) -> [AccessibilityElement] {
        let localizer = screen.localizer
        if let popup = screen.permissionPopup {
            return [AccessibilityElement(.other, identifier: PopupID.popup, children: [
                .text(popup.title, identifier: PopupID.title),
                .text(popup.message, identifier: PopupID.message),
                AccessibilityElement(.button, identifier: PopupID.goToSettings, label: popup.settingsButton,
                                     tap: .step(.tapPopup(.goToSettings))),
                AccessibilityElement(.button, identifier: PopupID.cancel, label: popup.cancelButton,
                                     tap: .step(.tapPopup(.cancel))),
            ] + (screen.placePicker == nil ? [] : [
                AccessibilityElement(.button, identifier: PopupID.choosePlace, label: popup.choosePlaceButton,
                                     tap: .step(.tapPopup(.choosePlace))),
            ]))]
        }
        if screen.isChoosingPlace, let picker = screen.placePicker {
            return [placePicker(picker, localizer)]
        }
        var elements: [AccessibilityElement] = [
            AccessibilityElement(.navigationBar, label: L10n.text(.listTitle, localizer), children: [
                AccessibilityElement(.button, identifier: ListID.permissions, label: L10n.text(.listPermissionsButton, localizer),
                                     tap: .step(.openPermissions)),
            ]),
        ]
        if let banner = screen.errorBanner { elements.append(errorView(banner, localizer)) }
        if let notice = screen.nothingNearbyNotice { elements.append(.text(notice, identifier: ListID.nothingNearby)) }
        if let summary = screen.listingSummary { elements.append(.text(summary, identifier: ListID.summary)) }
        if screen.offersPlaceChoice {
            elements.append(AccessibilityElement(.button, identifier: PlaceID.choose, label: L10n.text(.placeChooseButton, localizer),
                                                 tap: .openPlacePicker))
            if screen.offersPlaceClearing {
                elements.append(AccessibilityElement(.button, identifier: PlaceID.clear, label: L10n.text(.placeClearButton, localizer),
                                                     tap: .step(.clearPlace)))
            }
        }
        switch screen.content {
        case .loading:
            elements.append(AccessibilityElement(.activityIndicator, identifier: ListID.loading, label: L10n.text(.listLoading, localizer)))
        case .failed(let message):
            elements.append(errorView(message, localizer))
        case .empty:
            elements.append(.text(L10n.text(.listEmpty, localizer), identifier: ListID.empty))
        case .animals(let animals):
            elements.append(AccessibilityElement(.collectionView, identifier: ListID.list, children: animals.map { animal in
                AccessibilityElement(.cell, identifier: ListID.row(id: animal.id), label: L10n.rowAccessibilityLabel(animal, localizer))
            }))
        }
        return elements
    }

    private typealias PlaceID = AccessibilityIdentifiers.Place

    /// `PlacePickerView`: the search field, then what its text found, or why nothing shows.
    private static func placePicker(_ picker: PlacePickerModel, _ localizer: Localizer) -> AccessibilityElement {
        var children: [AccessibilityElement] = [
            {
                var field = AccessibilityElement(.searchField, identifier: PlaceID.searchField,
                                                 label: L10n.text(.placeSearchPlaceholder, localizer), value: picker.text)
                field.acceptsText = true
                return field
            }(),
            AccessibilityElement(.button, identifier: PlaceID.close, label: L10n.text(.placeSearchCloseButton, localizer),
                                 tap: .closePlacePicker),
        ]
        switch picker.status {
        case .failed:
            children.append(.text(L10n.text(.placeSearchFailed, localizer), identifier: PlaceID.failed))
        case .idle where picker.foundNothing:
            children.append(.text(L10n.text(.placeSearchNoResults, localizer), identifier: PlaceID.noResults))
        case .idle, .searching:
            break
        }
        children += picker.suggestions.map { place in
            AccessibilityElement(.cell, identifier: PlaceID.suggestion(id: place.id), label: L10n.placeSuggestion(place, localizer),
                                 tap: .step(.choosePlace(.id(place.id))))
        }
        if !picker.suggestions.isEmpty {
            children.append(.text(L10n.text(.placeAttribution, localizer), identifier: PlaceID.attribution))
        }
        return AccessibilityElement(.other, identifier: PlaceID.picker, children: children)
    }

    /// `ErrorMessageView`.
    private static func errorView(_ message: String, _ localizer: Localizer) -> AccessibilityElement {
        AccessibilityElement(.other, identifier: ListID.error, children: [
            .text(message),
            AccessibilityElement(.button, identifier: ListID.retry, label: L10n.text(.listRetryButton, localizer), tap: .step(.tapRetry)),
        ])
    }

    /// `PermissionsView`, or its "Learn more" sheet (`PermissionDetailView`) over it.
    private static func permissionsSheet(_ screen: PermissionsScreenModel) -> [AccessibilityElement] {
        let localizer = screen.localizer
        if let detail = screen.detail, let permission = screen.detailPermission {
            var elements: [AccessibilityElement] = [
                AccessibilityElement(.navigationBar, label: detail.card.title),
                .text(detail.card.statusText),
                .text(detail.whatWeDoHeading),
            ]
            elements += detail.details.whatWeDo.map { .text($0) }
            elements.append(.text(detail.whatWeDoNotDoHeading))
            elements += detail.details.whatWeDoNotDo.map { .text($0) }
            elements += [.text(detail.privacyHeading), .text(detail.details.privacy)]
            elements += detail.healthLines.map { .text($0) }
            if let title = detail.card.actionTitle, let button = cardButton(detail.card.action) {
                elements.append(AccessibilityElement(
                    .button, identifier: CardID.Detail.action, label: title, isEnabled: !detail.card.isBusy,
                    tap: .step(.tapPermission(Scenario.PermissionName(permission), button))
                ))
            }
            elements.append(AccessibilityElement(.button, identifier: CardID.Detail.done, label: detail.doneButton, tap: .closeDetail))
            return elements
        }
        var elements: [AccessibilityElement] = [
            AccessibilityElement(.navigationBar, label: PermissionsL10n.title(localizer)),
            .text(screen.texts.intro(localizer)),
        ]
        for card in screen.cards {
            let name = Scenario.PermissionName(card.permission)
            elements += [
                .text(card.title),
                .text(card.statusText, identifier: CardID.status(card.permission)),
                .text(card.rationale),
                AccessibilityElement(.button, identifier: CardID.learnMore(card.permission), label: card.learnMoreTitle,
                                     tap: .step(.tapPermission(name, .learnMore))),
            ]
            if card.isBusy {
                elements.append(AccessibilityElement(.activityIndicator, label: card.busyLabel))
            } else if let title = card.actionTitle, let button = cardButton(card.action) {
                elements.append(AccessibilityElement(.button, identifier: CardID.action(card.permission), label: title,
                                                     tap: .step(.tapPermission(name, button))))
            }
        }
        if let message = screen.errorMessage { elements.append(.text(message, identifier: CardID.error)) }
        elements.append(AccessibilityElement(
            .button, identifier: CardID.done, label: PermissionsL10n.doneButton(localizer), isEnabled: screen.canContinue,
            tap: .step(.closePermissions)
        ))
        return [AccessibilityElement(.scrollView, children: elements)]
    }

    private static func cardButton(_ action: PermissionCard.Action) -> Scenario.CardButton? {
        switch action {
        case .allow: .allow
        case .allowAlways: .allowAlways
        case .openSettings: .openSettings
        case .none: nil
        }
    }
}

/// What the tree reads of the app model (the app's two screens).
@MainActor
struct AppModelView {
    var startup: AnimalListViewModel
    var permissionsScreen: PermissionsScreenModel?
}

extension Scenario.PermissionName {
    init(_ permission: Permission) {
        switch permission {
        case .location: self = .location
        case .motion: self = .motion
        case .healthKit: self = .health
        }
    }
}
