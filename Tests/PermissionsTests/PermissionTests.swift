import Foundation
import DeviceInterfaces
import Localization
import Permissions
import PetSpotDomain
import Testing

@Suite struct PermissionTests {
    /// Each app's own words, and the permissions it has a card for.
    static let apps: [(name: String, texts: PermissionTexts, permissions: [Permission])] = [
        ("PetSpot", .petSpot, [.location]),
        ("Paint My Town", .paintMyTown, [.location, .motion, .healthKit]),
    ]

    @Test(arguments: [0, 1], AppLanguage.allCases)
    func givenAnAppsCards_whenDescribedInALanguage_thenEveryTextIsThatLanguagesOwn(app: Int, language: AppLanguage) {
        let (_, appTexts, permissions) = Self.apps[app]
        for permission in permissions {
            func texts(_ localizer: Localizer) -> [String] {
                let details = appTexts.details(permission, localizer)
                return [permission.title(localizer), appTexts.rationale(permission, localizer)]
                    + details.whatWeDo + details.whatWeDoNotDo + [details.privacy]
            }
            let localizer = Localizer(language: language, locale: Locale(identifier: language.rawValue))
            #expect(!permission.symbolName.isEmpty)
            #expect(PermissionsL10n.table.missingKeys(language) == [])
            #expect(appTexts.details(permission, localizer).whatWeDo.count >= 2)
            #expect(appTexts.details(permission, localizer).whatWeDoNotDo.count >= 2)
            #expect(texts(localizer).count == texts(.english).count)
            for (text, english) in zip(texts(localizer), texts(.english)) {
                #expect(!text.isEmpty)
                // German iOS keeps the Health app's English name: the card is "Apple Health" there too.
                let sameWordOnPurpose = language == .german && english == permission.title(.english) && permission == .healthKit
                if language != .english && !sameWordOnPurpose {
                    #expect(text != english, "\(language.rawValue) shows English: \(text)")
                }
            }
        }
    }

    @Test(arguments: [0, 1])
    func givenAnAppsTexts_whenRead_thenTheyDescribeItsOwnPermissionsInItsOwnName(app: Int) {
        let (name, texts, permissions) = Self.apps[app]
        let other = Self.apps[1 - app].name
        for permission in Permission.allCases {
            let rationale = texts.rationale(permission, .english)
            // A key the table lacks shows as the key itself: only the app's own permissions have texts.
            #expect(rationale.hasSuffix("_rationale") != permissions.contains(permission), "\(name): \(rationale)")
        }
        for permission in permissions {
            let details = texts.details(permission, .english)
            let all = [texts.intro(.english), texts.doneHint(.english), texts.rationale(permission, .english), details.privacy]
                + details.whatWeDo + details.whatWeDoNotDo
            #expect(!all.contains { $0.contains(other) }, "\(name) speaks of \(other)")
        }
        let card = PermissionCard(
            permission: .location, state: .denied, action: .openSettings, isBusy: false,
            locationStatus: .denied, locationServicesEnabled: true, texts: texts, localizer: .english
        )
        #expect(card.actionHint == "Opens \(name)'s page in Settings, where you can change Location.")
        #expect(card.learnMoreHint == "Explains what \(name) does with Location.")
    }

    /// Human Interface Guidelines, Privacy: the one button of a screen shown before iOS's alert is
    /// titled like "Continue", never like the alert's own Allow, which people would then tap unawares.
    @Test(arguments: AppLanguage.allCases)
    func givenACardWhoseButtonOpensIOSsAlert_whenShownInALanguage_thenItSaysContinueNeverAllow(language: AppLanguage) {
        let localizer = Localizer(language: language, locale: Locale(identifier: language.rawValue))
        func title(_ action: PermissionCard.Action) -> String? {
            PermissionCard(
                permission: .location, state: .notDetermined, action: action, isBusy: false,
                locationStatus: .notDetermined, locationServicesEnabled: true, texts: .paintMyTown, localizer: localizer
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
        #expect(PermissionTexts.paintMyTown.details(.motion, german).privacy.contains("Einstellungen"))
        let french = Localizer(language: .french, locale: Locale(identifier: "fr_FR"))
        #expect(PermissionTexts.paintMyTown.details(.motion, french).privacy.contains("Réglages"))
        #expect(PermissionTexts.paintMyTown.details(.motion, .english).privacy.contains("Settings › Privacy & Security › Motion & Fitness"))
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

    @Test func givenPaintMyTownsHealthDetails_whenShown_thenTheySayItReadsNothing() {
        #expect(PermissionTexts.paintMyTown.details(.healthKit, .english).whatWeDoNotDo.contains("Read anything from Health."))
    }

    @Test func givenScopeList_whenParsed_thenKnownNamesAreAcceptedAndUnknownNamed() throws {
        #expect(try PlistPermissionScope.parseList("location, Motion,health") == [.location, .motion, .health])
        #expect(throws: UnknownPermissionScopes(names: ["camera"])) { try PlistPermissionScope.parseList("location,camera") }
        #expect(throws: UnknownPermissionScopes(names: [])) { try PlistPermissionScope.parseList(",") }
    }
}
