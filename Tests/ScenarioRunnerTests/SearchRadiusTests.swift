import Foundation
import PetAPI
import StartupFeature
import Testing

/// The app names the radius it searched ("No pets within 50 km"); the server decides it. The two live
/// in modules that do not know each other, and meet here, where the app talks to the server.
@Suite struct SearchRadiusTests {
    @Test func givenTheNothingNearbyText_whenItNamesTheRadius_thenItIsTheServersDefaultWhichTheClientLeavesAlone() {
        #expect(L10n.searchRadius.converted(to: .kilometers).value == AnimalQuery.defaultRadiusKm)
        // The client leaves the radius to the server unless told otherwise.
        let client = AnimalRepository.Configuration(baseURL: URL(fileURLWithPath: "/"))
        #expect(client.radiusKm == nil)
    }
}
