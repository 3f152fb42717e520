/// The long explanation behind "Learn more" for one permission.
public struct PermissionDetails: Sendable, Equatable {
    /// What the app does with the permission.
    public var whatWeDo: [String]
    /// What the app never does with it.
    public var whatWeDoNotDo: [String]
    /// How the data is kept and who sees it.
    public var privacy: String

    public init(whatWeDo: [String], whatWeDoNotDo: [String], privacy: String) {
        self.whatWeDo = whatWeDo
        self.whatWeDoNotDo = whatWeDoNotDo
        self.privacy = privacy
    }
}
