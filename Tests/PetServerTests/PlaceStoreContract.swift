import Foundation
import PetAPI
@testable import PetServer
import PetSpotDomain
import Testing

/// What every ``PlaceStore`` answers, over real lines of the bundled gazetteer, against a brute force.
enum PlaceStoreContract: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case givenRealPlaces_whenSearchedByPrefixOrPostalCode_thenAsTheBruteForce
    case givenStoredPlaces_whenFetchedById_thenEveryFieldRoundTrips
    case givenStoredPlaces_whenANewerFileIsLoaded_thenItReplacesThem

    var testDescription: String { rawValue }

    /// The bundled file's places whose name starts as some of the queries below do, and a few ZIPs:
    /// about two thousand, read once (the whole file takes seconds to load into a store).
    static let sample: [Place] = {
        guard let url = GazetteerFile.bundled, let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let starts = ["Ly", "Kö", "Ko", "Sã", "Sao", "Saint-É", "Ł", "New Y", "Lyon"]
        var lines = [String(text.prefix { $0 != "\n" })]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count > 2 else { continue }
            let zip = fields[0].hasPrefix("us-zip:100")
            if zip || starts.contains(where: { fields[1].hasPrefix($0) }) { lines.append(String(line)) }
        }
        return (try? GazetteerFile.parse(Data(lines.joined(separator: "\n").utf8))) ?? []
    }()

    /// Postal codes equal to the text (by id), then names whose folded form starts with the folded
    /// text, largest first, ties by id in byte order.
    static func bruteForce(_ places: [Place], _ query: PlaceQuery) -> [Place] {
        let key = PlaceSearch.fold(query.text)
        let postal = places.filter { $0.postalCode == query.text }.sorted { AnimalID.precedes($0.id, $1.id) }
        let named = key.isEmpty ? [] : places.filter { $0.postalCode == nil && PlaceSearch.fold($0.name).hasPrefix(key) }
            .sorted(by: PlaceSearch.ranksFirst)
        return Array((postal + named).prefix(query.limit))
    }

    func run(on store: any PlaceStore) async throws {
        let sample = Self.sample
        try #require(sample.count > 1_000, "the bundled gazetteer is missing or was not read")
        switch self {
        case .givenRealPlaces_whenSearchedByPrefixOrPostalCode_thenAsTheBruteForce:
            #expect(try await store.replacePlaces(with: sample) == sample.count)
            #expect(try await store.placeCount() == sample.count)
            let texts = ["l", "ly", "LY", "lyo", "lyon", "lyon 0", "k", "ko", "koln", "KÖLN", "kol", "s", "sa", "sao", "são p",
                         "saint-e", "saint é", "lodz", "łódź", "new y", "new york", "10001", "10002", "1000", "zzz", "!!", "n"]
            for text in texts {
                for limit in [1, 3, 10] {
                    let query = PlaceQuery(text: text, limit: limit)
                    let found = try await store.places(matching: query)
                    #expect(found == Self.bruteForce(sample, query), "q=\(text) limit=\(limit)")
                }
            }
            // What the issue promises, in words.
            #expect(try await store.places(matching: PlaceQuery(text: "sao")).first?.name == "São Paulo")
            #expect(try await store.places(matching: PlaceQuery(text: "koln")).first?.name == "Köln")
            #expect(try await store.places(matching: PlaceQuery(text: "10001")).first?.label == "New York, NY 10001")

        case .givenStoredPlaces_whenFetchedById_thenEveryFieldRoundTrips:
            try await store.replacePlaces(with: sample)
            for place in sample.prefix(50) + sample.suffix(50) {
                #expect(try await store.place(id: place.id) == place)
            }
            #expect(try await store.place(id: "geonames:0") == nil)

        case .givenStoredPlaces_whenANewerFileIsLoaded_thenItReplacesThem:
            try await store.replacePlaces(with: sample)
            let newer = Array(sample.filter { $0.name.hasPrefix("Ly") })
            #expect(try await store.replacePlaces(with: newer) == newer.count)
            #expect(try await store.placeCount() == newer.count)
            #expect(try await store.places(matching: PlaceQuery(text: "koln")).isEmpty)
            #expect(try await store.places(matching: PlaceQuery(text: "ly")) == Self.bruteForce(newer, PlaceQuery(text: "ly")))
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct SQLitePlaceStoreTests {
    @Test(arguments: PlaceStoreContract.allCases)
    func givenFreshTemporaryDatabase_whenPlaceContractCaseRuns_thenItHolds(_ contractCase: PlaceStoreContract) async throws {
        try await contractCase.run(on: AnimalFixtures.sqliteStore())
    }
}

@Suite(.enabled(if: PostgresTestDatabase.shouldRun, PostgresTestDatabase.skipMessage), .timeLimit(.minutes(1)))
struct PostgresPlaceStoreTests {
    @Test(arguments: PlaceStoreContract.allCases)
    func givenFreshSchema_whenPlaceContractCaseRuns_thenItHolds(_ contractCase: PlaceStoreContract) async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in try await contractCase.run(on: store) }
    }
}

/// The gazetteer file's rules and the folding of names.
@Suite struct GazetteerFileTests {
    @Test(arguments: [
        ("São Paulo", "sao paulo"), ("KÖLN", "koln"), ("Saint-Étienne", "saint etienne"), ("Łódź", "lodz"),
        ("  New   York ", "new york"), ("Großenhain", "grossenhain"), ("!!", ""), ("東京", "東京"), ("Æbeltoft", "aebeltoft"),
    ])
    func givenANameAsWritten_whenFolded_thenAsAPersonTypesIt(_ name: String, _ folded: String) {
        #expect(PlaceSearch.fold(name) == folded)
    }

    private static let header = "id\tname\tregion\tcountry\tlat\tlon\tpopulation\tpostalCode\tlabel"

    @Test(arguments: [
        ("id\tname\n", GazetteerFileError(line: 1, field: nil, message: "the first line must be the header: id name region country lat lon population postalCode label")),
        (header + "\ngeonames:1\tLyon\t\tFR\t45.7\t4.8\t1\t\tLyon, France\ngeonames:1\tLyon\t\tFR\t45.7\t4.8\t1\t\tLyon, France",
         GazetteerFileError(line: 3, field: "id", message: "\"geonames:1\" repeats an earlier line")),
        (header + "\ngeonames:1\tLyon\t\tFrance\t45.7\t4.8\t1\t\tLyon, France",
         GazetteerFileError(line: 2, field: "country", message: "must be an ISO 3166-1 alpha-2 code such as FR (was \"France\")")),
        (header + "\ngeonames:1\tLyon\t\tFR\t95\t4.8\t1\t\tLyon, France",
         GazetteerFileError(line: 2, field: "lat", message: "lat and lon must be decimal degrees within -90…90 and -180…180")),
        (header + "\ngeonames:1\tLyon\t\tFR\t45.7\t4.8\tmany\t\tLyon, France",
         GazetteerFileError(line: 2, field: "population", message: "must be a whole number ≥ 0 (was \"many\")")),
        (header + "\ngeonames:1\tLyon\tFR\t45.7\t4.8\t1\t\tLyon, France",
         GazetteerFileError(line: 2, field: nil, message: "has 8 fields; every line has 9, separated by tabs")),
        (header + "\ngeonames:1\tLy\u{1}on\t\tFR\t45.7\t4.8\t1\t\tLyon, France",
         GazetteerFileError(line: 2, field: "name", message: "holds a control character (U+0001); text fields may not")),
    ] as [(String, GazetteerFileError)])
    func givenABadLine_whenParsed_thenTheLineAndFieldAreNamed(_ text: String, _ error: GazetteerFileError) {
        #expect(throws: error) { try GazetteerFile.parse(Data(text.utf8)) }
    }

    @Test func givenTheBundledFile_whenParsed_thenItHoldsTheCitiesAndTheZIPCodes() throws {
        let url = try #require(GazetteerFile.bundled)
        let places = try GazetteerFile.parse(try Data(contentsOf: url))
        #expect(places.filter { $0.id.hasPrefix("geonames:") }.count > 140_000)
        #expect(places.filter { $0.id.hasPrefix("us-zip:") }.count > 30_000)
        #expect(places.contains { $0.name == "Lyon" && $0.countryCode == "FR" && $0.label == "Lyon, France" })
    }
}

extension GazetteerFileTests {
    /// The ASCII fast path folds as the general one does.
    @Test func givenASCIIText_whenFolded_thenAsTheGeneralPathFoldsIt() {
        var random = SplitMix64(seed: 5)
        let alphabet = Array("aZ09 -'.,!~\t" + "Saint-Etienne NEW york")
        for _ in 0..<2_000 {
            let text = String((0..<random.index(12)).map { _ in alphabet[random.index(alphabet.count)] })
            // A non-ASCII suffix sends the same text down the general path; the suffix folds to nothing.
            let general = PlaceSearch.fold(text + "\u{301}")
            #expect(PlaceSearch.fold(text) == general, "\(text.debugDescription)")
        }
    }
}
