/// The long explanation behind "Learn more" for one permission.
public struct PermissionDetails: Sendable, Equatable {
    /// What PetSpot does with the permission.
    public var whatWeDo: [String]
    /// What PetSpot never does with it.
    public var whatWeDoNotDo: [String]
    /// How the data is kept and who sees it.
    public var privacy: String

    public init(whatWeDo: [String], whatWeDoNotDo: [String], privacy: String) {
        self.whatWeDo = whatWeDo
        self.whatWeDoNotDo = whatWeDoNotDo
        self.privacy = privacy
    }

    static let location = PermissionDetails(
        whatWeDo: [
            "Sort the animals up for adoption by distance from you.",
            "Show how far each shelter is.",
            "Ask for your location only while PetSpot is on screen.",
        ],
        whatWeDoNotDo: [
            "Follow you in the background.",
            "Keep a history of where you have been.",
            "Share your location with shelters, advertisers or anyone else.",
        ],
        privacy: """
            Your position is rounded to about 1 km on your phone before it is sent to find nearby pets, \
            and it is not stored with your identity. PetSpot works without location too: you then see \
            the newest animals first.
            """
    )

    static let motion = PermissionDetails(
        whatWeDo: [
            "Tell walking apart from driving, so only real walks with a pet count.",
            "Read your recent activity type (walking, running, stationary) on your phone.",
        ],
        whatWeDoNotDo: [
            "Record your movements continuously.",
            "Send any motion data off your phone.",
        ],
        privacy: """
            Motion activity is read on your phone and never leaves it. You can turn it off at any time \
            in Settings › Privacy & Security › Motion & Fitness.
            """
    )

    static let healthKit = PermissionDetails(
        whatWeDo: [
            "Save walks with a pet to Health as walking workouts, with their route.",
            "Read your steps and walking distance to show them next to your walks.",
        ],
        whatWeDoNotDo: [
            "Read any other health data.",
            "Send Health data to our servers or anyone else.",
            "Use Health data for advertising.",
        ],
        privacy: """
            Health data stays in Apple Health on your phone. iOS does not tell apps whether you allowed \
            reading, so PetSpot never claims to know it; you decide per data type in the Health app.
            """
    )
}
