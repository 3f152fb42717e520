import PetSpotDomain

/// Words the demo generator composes listings from.
enum DemoVocabulary {
    struct Kind: Sendable {
        var species: Animal.Species
        var breeds: [String]
        var maxAgeMonths: Int
    }

    static let kinds: [Kind] = [
        Kind(species: .dog, breeds: [
            "Mixed Breed", "Labrador Retriever", "German Shepherd", "Beagle", "Border Collie", "Dachshund",
            "Staffordshire Bull Terrier", "Jack Russell Terrier", "Golden Retriever", "Greyhound", "Husky",
        ], maxAgeMonths: 168),
        Kind(species: .dog, breeds: ["Mixed Breed", "Terrier Mix", "Shepherd Mix", "Hound Mix"], maxAgeMonths: 150),
        Kind(species: .cat, breeds: [
            "Domestic Shorthair", "Domestic Longhair", "Tabby", "Tuxedo", "Siamese", "Maine Coon",
            "British Shorthair", "Calico", "Ragdoll",
        ], maxAgeMonths: 192),
        Kind(species: .cat, breeds: ["Domestic Shorthair", "Tabby", "Black Cat"], maxAgeMonths: 180),
        Kind(species: .rabbit, breeds: ["Netherland Dwarf", "Holland Lop", "Lionhead", "Rex", "Dutch"], maxAgeMonths: 96),
        Kind(species: .bird, breeds: ["Budgerigar", "Cockatiel", "Canary", "Lovebird", "Zebra Finch"], maxAgeMonths: 120),
        Kind(species: .other, breeds: ["Guinea Pig", "Hamster", "Ferret", "Chinchilla", "Rat"], maxAgeMonths: 72),
    ]

    static let femaleNames = [
        "Luna", "Bella", "Daisy", "Molly", "Lola", "Nala", "Kira", "Mia", "Rosie", "Coco", "Pepper", "Willow",
        "Hazel", "Maple", "Frida", "Zuzia", "Tosia", "Mila", "Sakura", "Nina", "Olive", "Ruby", "Penny", "Ivy",
    ]

    static let maleNames = [
        "Max", "Charlie", "Milo", "Rocky", "Leo", "Oscar", "Buddy", "Simba", "Teddy", "Bruno", "Ollie", "Jasper",
        "Felix", "Reksio", "Burek", "Azor", "Kuba", "Hugo", "Toby", "Sam", "Loki", "Rex", "Finn", "Mango",
    ]

    static let traits = [
        "gentle", "playful", "curious", "calm", "affectionate", "shy but sweet", "energetic", "easy-going",
        "clever", "cuddly",
    ]

    static let homes = [
        "a quiet home", "a family with older children", "a garden to explore", "long walks every day",
        "a sunny windowsill", "a patient first-time adopter", "a home with another friendly pet",
        "plenty of toys and attention",
    ]

    static let shelterPatterns = [
        "{city} Animal Shelter", "{city} Humane Society", "Paws of {city}", "{city} Pet Rescue",
        "Second Chance {city}",
    ]
}
