/// A real city where demo shelters are placed.
struct DemoCity: Sendable {
    var name: String
    var lat: Double
    var lon: Double
    /// How far around the centre demo pets spread, in kilometres.
    var spreadKm: Double

    static let all: [DemoCity] = [
        DemoCity(name: "Warsaw", lat: 52.23, lon: 21.01, spreadKm: 25),
        DemoCity(name: "Kraków", lat: 50.06, lon: 19.94, spreadKm: 20),
        DemoCity(name: "Berlin", lat: 52.52, lon: 13.40, spreadKm: 25),
        DemoCity(name: "Paris", lat: 48.86, lon: 2.35, spreadKm: 25),
        DemoCity(name: "London", lat: 51.51, lon: -0.13, spreadKm: 30),
        DemoCity(name: "Madrid", lat: 40.42, lon: -3.70, spreadKm: 25),
        DemoCity(name: "Rome", lat: 41.90, lon: 12.50, spreadKm: 20),
        DemoCity(name: "Stockholm", lat: 59.33, lon: 18.07, spreadKm: 20),
        DemoCity(name: "Reykjavík", lat: 64.15, lon: -21.94, spreadKm: 15),
        DemoCity(name: "New York", lat: 40.71, lon: -74.01, spreadKm: 30),
        DemoCity(name: "Chicago", lat: 41.88, lon: -87.63, spreadKm: 30),
        DemoCity(name: "Toronto", lat: 43.65, lon: -79.38, spreadKm: 25),
        DemoCity(name: "Mexico City", lat: 19.43, lon: -99.13, spreadKm: 30),
        DemoCity(name: "São Paulo", lat: -23.55, lon: -46.63, spreadKm: 30),
        DemoCity(name: "Buenos Aires", lat: -34.60, lon: -58.38, spreadKm: 30),
        DemoCity(name: "Cape Town", lat: -33.92, lon: 18.42, spreadKm: 20),
        DemoCity(name: "Nairobi", lat: -1.29, lon: 36.82, spreadKm: 20),
        DemoCity(name: "Cairo", lat: 30.04, lon: 31.24, spreadKm: 25),
        DemoCity(name: "Mumbai", lat: 19.08, lon: 72.88, spreadKm: 25),
        DemoCity(name: "Tokyo", lat: 35.68, lon: 139.69, spreadKm: 30),
        DemoCity(name: "Seoul", lat: 37.57, lon: 126.98, spreadKm: 25),
        DemoCity(name: "Sydney", lat: -33.87, lon: 151.21, spreadKm: 30),
        DemoCity(name: "Auckland", lat: -36.85, lon: 174.76, spreadKm: 20),
        DemoCity(name: "Suva", lat: -18.14, lon: 178.44, spreadKm: 15),
        DemoCity(name: "Anchorage", lat: 61.22, lon: -149.90, spreadKm: 20),
    ]
}
