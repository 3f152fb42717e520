/// A system alert or sheet iOS shows over the app. Other permission simulations add their own kinds
/// and buttons in extensions (`SystemAlert.Kind("motionActivity")`).
public struct SystemAlert: Sendable, Hashable, CustomStringConvertible {
    /// Which alert it is.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// "Allow “PetSpot” to use your location?" after `requestWhenInUseAuthorization()`, or after
        /// `requestAlwaysAuthorization()` from `.notDetermined`.
        public static let locationWhenInUse = Kind("locationWhenInUse")
        /// "Change to Always Allow?" after `requestAlwaysAuthorization()` from a When-In-Use grant.
        public static let locationAlwaysUpgrade = Kind("locationAlwaysUpgrade")
        /// "Allow “PetSpot” to use your precise location once?" after
        /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`.
        public static let locationTemporaryFullAccuracy = Kind("locationTemporaryFullAccuracy")
    }

    public var kind: Kind
    /// The buttons, in the order iOS lays them out.
    public var buttons: [SystemAlertButton]

    public init(kind: Kind, buttons: [SystemAlertButton]) {
        self.kind = kind
        self.buttons = buttons
    }

    public var description: String {
        "\(kind) [\(buttons.map(\.rawValue).joined(separator: ", "))]"
    }

    static let locationWhenInUse = SystemAlert(
        kind: .locationWhenInUse,
        buttons: [.allowOnce, .allowWhileUsing, .dontAllow]
    )
    static let locationTemporaryFullAccuracy = SystemAlert(
        kind: .locationTemporaryFullAccuracy,
        buttons: [.allowOnce, .dontAllow]
    )
    static let locationAlwaysUpgrade = SystemAlert(
        kind: .locationAlwaysUpgrade,
        buttons: [.keepOnlyWhileUsing, .changeToAlwaysAllow]
    )
}

/// A button of a ``SystemAlert``: what the simulated person taps.
public struct SystemAlertButton: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// "Allow Once": a When-In-Use grant that lapses when the app stops being used (rule 5).
    public static let allowOnce = SystemAlertButton("allowOnce")
    /// "Allow While Using App".
    public static let allowWhileUsing = SystemAlertButton("allowWhileUsing")
    /// "Don't Allow".
    public static let dontAllow = SystemAlertButton("dontAllow")
    /// "Keep Only While Using" on the Always upgrade prompt.
    public static let keepOnlyWhileUsing = SystemAlertButton("keepOnlyWhileUsing")
    /// "Change to Always Allow" on the Always upgrade prompt.
    public static let changeToAlwaysAllow = SystemAlertButton("changeToAlwaysAllow")
}

/// The two answers of the Always upgrade prompt (rule 6), for ``SimulatedDevice/answerAlwaysUpgrade(_:)``.
public enum AlwaysUpgradeAnswer: String, Sendable, Equatable, CaseIterable {
    case keepOnlyWhileUsing
    case changeToAlwaysAllow

    var button: SystemAlertButton {
        switch self {
        case .keepOnlyWhileUsing: .keepOnlyWhileUsing
        case .changeToAlwaysAllow: .changeToAlwaysAllow
        }
    }
}
