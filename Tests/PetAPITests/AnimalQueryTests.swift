import PetAPI
import PetSpotDomain
import Testing

@Suite struct AnimalQueryTests {
    private func parse(_ pairs: [(String, String)]) throws(AnimalQueryError) -> AnimalQuery {
        try AnimalQuery.parse(pairs.map { (name: $0.0, value: $0.1) })
    }

    @Test func givenNoParameters_whenParsing_thenDefaultsWithoutCenter() throws {
        #expect(try parse([]) == AnimalQuery(center: nil, radiusKm: 50, limit: 20, page: 1))
    }

    @Test func givenEveryParameter_whenParsing_thenAllValuesKept() throws {
        let query = try parse([("lat", "-33.87"), ("lon", "151.21"), ("radiusKm", "12.5"), ("limit", "7"), ("page", "3")])
        #expect(query == AnimalQuery(center: try GeoCoordinate(latitude: -33.87, longitude: 151.21), radiusKm: 12.5, limit: 7, page: 3))
        #expect(query.offset == 14)
    }

    @Test(arguments: ["nan", "inf", "-infinity", "1e400", "-1e400", "91", ""])
    func givenNonFiniteOrOutOfRangeLatitude_whenParsing_thenLatIsNamed(_ value: String) {
        #expect(throws: AnimalQueryError.self) { try parse([("lat", value), ("lon", "0")]) }
        do {
            _ = try parse([("lat", value), ("lon", "0")])
        } catch {
            #expect(error.parameter == "lat")
            #expect(error.message.contains("between -90 and 90"))
        }
    }

    @Test func givenRepeatedParameter_whenParsing_thenRefusedNamingIt() throws {
        #expect(throws: AnimalQueryError(parameter: "limit", message: "limit is given more than once; give it once")) {
            try parse([("limit", "5"), ("limit", "5")])
        }
        #expect(try parse([("x", "1"), ("x", "2"), ("limit", "5")]).limit == 5)
    }

    @Test(arguments: ["52", "-0.5", "+3", ".5", "5.", "1e3", "2.5E-1", "-1e+2", "007"])
    func givenADecimalNumber_whenChecked_thenItIsOne(_ text: String) {
        #expect(AnimalQuery.isDecimal(text))
    }

    @Test(arguments: ["", "+", "-", ".", "e3", "5e", "5e+", "0x1p3", "0x10", "inf", "nan", "1_000", " 5", "5 ", "1.2.3", "١٢"])
    func givenTextThatIsNotADecimalNumber_whenChecked_thenRefused(_ text: String) {
        #expect(!AnimalQuery.isDecimal(text))
    }

    @Test func givenHugePage_whenComputingOffset_thenItSaturatesInsteadOfOverflowing() {
        #expect(AnimalQuery(limit: 100, page: .max).offset == .max)
    }

    @Test func givenQueryWithCenterAndDefaults_whenEncoding_thenOnlyCoordinatesAreSent() throws {
        let query = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
        #expect(query.queryItems.map { "\($0.name)=\($0.value)" } == ["lat=52.23", "lon=21.01"])
    }

    @Test func givenQueryWithoutCenter_whenEncoding_thenRadiusIsNeverSent() {
        let query = AnimalQuery(center: nil, radiusKm: 10, limit: 5, page: 2)
        #expect(query.queryItems.map { "\($0.name)=\($0.value)" } == ["limit=5", "page=2"])
    }

    @Test func givenEncodedQuery_whenParsedBack_thenSameQuery() throws {
        let query = AnimalQuery(center: try GeoCoordinate(latitude: -0.5, longitude: 179.9), radiusKm: 7.5, limit: 33, page: 4)
        #expect(try AnimalQuery.parse(query.queryItems) == query)
    }
}

@Suite struct AnimalQueryFilterTests {
    private func parse(_ pairs: [(String, String)]) throws(AnimalQueryError) -> AnimalQuery {
        try AnimalQuery.parse(pairs.map { (name: $0.0, value: $0.1) })
    }

    @Test func givenSpeciesSexAndAgeLists_whenParsing_thenEachSetIsKept() throws {
        let query = try parse([("species", "dog,cat,dog"), ("sex", "female"), ("age", "senior,baby")])
        #expect(query.filter == AnimalFilter(species: [.dog, .cat], sexes: [.female], ageBands: [.baby, .senior]))
        #expect(query.ordering == .recent)
    }

    @Test(arguments: [("species", "hamster"), ("species", ""), ("species", "dog,"), ("sex", "Female"), ("age", "old"), ("age", "baby;young")])
    func givenAValueNoListHas_whenParsing_thenRefusedNamingTheParameterAndItsValues(_ name: String, _ value: String) {
        do {
            _ = try parse([(name, value)])
            Issue.record("\(name)=\(value) was accepted")
        } catch {
            #expect(error.parameter == name)
            #expect(error.message.contains("separated by commas"))
        }
    }

    @Test(arguments: ["distance", "recent"])
    func givenSortWithoutCoordinates_whenParsing_thenRefusedNamingSort(_ sort: String) {
        #expect(throws: AnimalQueryError(
            parameter: "sort", message: "sort is allowed only together with lat and lon (without them the listing is newest first)"
        )) { try parse([("sort", sort)]) }
        #expect(throws: AnimalQueryError.self) { try parse([("sort", "nearest"), ("lat", "1"), ("lon", "2")]) }
    }

    @Test func givenTheDefaultOrderAskedFor_whenParsing_thenItIsTheQueryWithoutIt() throws {
        #expect(try parse([("lat", "1"), ("lon", "2"), ("sort", "distance")]) == parse([("lat", "1"), ("lon", "2")]))
        #expect(try parse([("lat", "1"), ("lon", "2"), ("sort", "recent")]).ordering == .recent)
    }

    @Test func givenAFilteredNewestFirstNearbyQuery_whenEncoding_thenValuesComeInOneOrderAndParseBack() throws {
        let query = AnimalQuery(
            center: try GeoCoordinate(latitude: 52.23, longitude: 21.01),
            filter: AnimalFilter(species: [.rabbit, .dog], sexes: [.male, .female], ageBands: [.senior, .young]), sort: .recent
        )
        #expect(query.queryItems.map { "\($0.name)=\($0.value)" } == [
            "lat=52.23", "lon=21.01", "species=dog,rabbit", "sex=female,male", "age=young,senior", "sort=recent",
        ])
        #expect(try AnimalQuery.parse(query.queryItems) == query)
    }

    @Test(arguments: [(0, AgeBand.baby), (5, .baby), (6, .young), (23, .young), (24, .adult), (95, .adult), (96, .senior), (600, .senior)])
    func givenAnAgeInMonths_whenBanded_thenTheBandHoldsIt(_ months: Int, _ band: AgeBand) {
        #expect(AgeBand(ageMonths: months) == band)
        #expect(band.months.contains(months))
    }
}
