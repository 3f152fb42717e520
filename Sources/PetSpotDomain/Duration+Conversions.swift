extension Duration {
    /// The duration in seconds, as `TimeInterval` counts them.
    public var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in milliseconds, with fractions.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }

    /// The whole milliseconds in the duration, the fraction dropped (toward zero).
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }

    /// Seconds with three decimals, for logs: `1.200s`, `-0.050s` (whole milliseconds, toward zero).
    public var secondsText: String {
        let millis = wholeMilliseconds
        let fraction = String(millis.magnitude % 1000)
        let padding = String(repeating: "0", count: 3 - fraction.count)
        return "\(millis < 0 ? "-" : "")\(millis.magnitude / 1000).\(padding)\(fraction)s"
    }
}
