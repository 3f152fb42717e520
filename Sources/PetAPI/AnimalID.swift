/// The rule of a pet's id (docs/api.md, "Pet ids"): 1 to ``maximumLength`` Unicode scalars, no
/// control character, compared as UTF-8 bytes.
///
/// The trap is Swift's `String`: its `==`, hashing and `<` treat canonically equivalent text as one
/// (`é` and `e` + U+0301), and its `count` counts characters, not the scalars a cursor and the API
/// document's pattern count. Every comparison, key and length of an id goes through bytes or scalars.
public enum AnimalID {
    /// The longest id, in Unicode scalars: `e` + U+0301 is two.
    public static let maximumLength = 128

    /// What ``hasAllowedLength(_:)`` refuses, as the import says it.
    public static let lengthRule = "must be 1 to 128 Unicode scalars (é written as e and U+0301 is two)"

    /// Whether `id` is 1 to ``maximumLength`` Unicode scalars long. The cheap test first: no more
    /// bytes than that means no more scalars (every stored pet read back passes here).
    public static func hasAllowedLength(_ id: String) -> Bool {
        !id.isEmpty && (id.utf8.count <= maximumLength || id.unicodeScalars.count <= maximumLength)
    }

    /// Whether `id` may name a stored pet: one of the allowed length, or one of up to 128 characters,
    /// which the import took before ids were counted in scalars. A pet stored then is still read and
    /// served, and can be withdrawn by its id.
    public static func mayNameStoredPet(_ id: String) -> Bool {
        hasAllowedLength(id) || (!id.isEmpty && id.count <= maximumLength)
    }

    /// What ``mayNameStoredPet(_:)`` refuses, as the import says it.
    public static let storedLengthRule = "must be 1 to 128 characters"

    /// The order of ids: their UTF-8 bytes, as SQLite's `BINARY` collation and PostgreSQL's
    /// `COLLATE "C"` compare them (which is also the order of their Unicode scalars).
    public static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
