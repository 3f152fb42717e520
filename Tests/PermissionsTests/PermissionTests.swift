import Foundation
import DeviceInterfaces
import Localization
import Permissions
import PetSpotDomain
import Testing

@Suite struct PermissionTests {
    @Test(arguments: Permission.allCases, AppLanguage.allCases)
    func givenPermission_whenDescribedInALanguage_thenEveryTextIsThatLanguagesOwn(permission: Permission, language: AppLanguage) {
        func texts(_ localizer: Localizer) -> [String] {
            [permission.title(localizer), permission.rationale(localizer)]
                + permission.details(localizer).whatWeDo + permission.details(localizer).whatWeDoNotDo
                + [permission.details(localizer).privacy]
        }
        let localizer = Localizer(language: language, locale: Locale(identifier: language.rawValue))
        #expect(!permission.symbolName.isEmpty)
        #expect(PermissionsL10n.table.missingKeys(language) == [])
        #expect(permission.details(localizer).whatWeDo.count >= 2)
        #expect(permission.details(localizer).whatWeDoNotDo.count >= 2)
        for (text, english) in zip(texts(localizer), texts(.english)) {
            #expect(!text.isEmpty)
            // German iOS keeps the Health app's English name: the card is "Apple Health" there too.
            let sameWordOnPurpose = language == .german && english == permission.title(.english) && permission == .healthKit
            if language != .english && !sameWordOnPurpose {
                #expect(text != english, "\(language.rawValue) shows English: \(text)")
            }
        }
    }

    /// Human Interface Guidelines, Privacy: the one button of a screen shown before iOS's alert is
    /// titled like "Continue", never like the alert's own Allow, which people would then tap unawares.
    @Test(arguments: AppLanguage.allCases)
    func givenACardWhoseButtonOpensIOSsAlert_whenShownInALanguage_thenItSaysContinueNeverAllow(language: AppLanguage) {
        let localizer = Localizer(language: language, locale: Locale(identifier: language.rawValue))
        func title(_ action: PermissionCard.Action) -> String? {
            PermissionCard(
                permission: .location, state: .notDetermined, action: action, isBusy: false,
                locationStatus: .notDetermined, locationServicesEnabled: true, localizer: localizer
            ).actionTitle
        }
        // The language's own words for allowing, as iOS's alerts and the cards used to say them.
        let allowWords: [AppLanguage: [String]] = [
            .english: ["allow"], .german: ["erlaub"], .spanish: ["permit"], .french: ["autoris"],
            .polish: ["pozw", "zezw"], .brazilianPortuguese: ["permit"], .japanese: ["許可"],
        ]
        #expect(allowWords[language] != nil, "no words for \(language.rawValue)")
        for action in [PermissionCard.Action.allow, .allowAlways] {
            let shown = title(action)
            #expect(shown == title(.allow))
            for word in allowWords[language] ?? [] {
                #expect(shown?.lowercased().contains(word) == false, "\(language.rawValue): \(shown ?? "nil")")
            }
            #expect(shown?.contains(" ") == false)
        }
        #expect(title(.allow) != title(.openSettings))
        if language == .english { #expect(title(.allow) == "Continue") }
    }

    @Test func givenGermanOrFrenchScreen_whenMotionIsDescribed_thenSettingsHasItsLocalName() {
        let german = Localizer(language: .german, locale: Locale(identifier: "de_DE"))
        #expect(Permission.motion.details(german).privacy.contains("Einstellungen"))
        let french = Localizer(language: .french, locale: Locale(identifier: "fr_FR"))
        #expect(Permission.motion.details(french).privacy.contains("Réglages"))
        #expect(Permission.motion.details(.english).privacy.contains("Settings › Privacy & Security › Motion & Fitness"))
    }

    @Test func givenEachPermission_whenAskedForRequirements_thenTheIssueKeysAreListed() {
        #expect(Permission.location.requirements.map(\.key) == [
            "NSLocationWhenInUseUsageDescription",
            "NSLocationAlwaysAndWhenInUseUsageDescription",
            "NSLocationTemporaryUsageDescriptionDictionary",
        ])
        #expect(Permission.motion.requirements.map(\.key) == ["NSMotionUsageDescription"])
        #expect(Permission.healthKit.requirements.map(\.key) == [
            "NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription", "com.apple.developer.healthkit",
        ])
    }

    @Test func givenRequirements_whenMissing_thenOnlyMotionAndHealthUsageDescriptionsCrash() {
        let crashing = InfoPlistRequirement.all.filter(\.crashesWhenMissing).map(\.key)
        #expect(crashing == ["NSMotionUsageDescription", "NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"])
    }

    @Test func givenHealthReadingDescription_whenShown_thenItNeverClaimsToKnowTheReadAnswer() {
        #expect(Permission.healthKit.details(.english).privacy.contains("does not tell"))
    }

    @Test func givenScopeList_whenParsed_thenKnownNamesAreAcceptedAndUnknownNamed() throws {
        #expect(try PlistPermissionScope.parseList("location, Motion,health") == [.location, .motion, .health])
        #expect(throws: UnknownPermissionScopes(names: ["camera"])) { try PlistPermissionScope.parseList("location,camera") }
        #expect(throws: UnknownPermissionScopes(names: [])) { try PlistPermissionScope.parseList(",") }
    }
}
