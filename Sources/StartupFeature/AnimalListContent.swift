import PetSpotDomain

/// What the listing area shows, so that the view only switches over it.
public enum AnimalListContent: Equatable, Sendable {
    /// Nothing to show yet; a load runs.
    case loading
    /// The first load failed: the message with Retry.
    case failed(message: String)
    /// The query completed with no animals.
    case empty
    case animals([Animal])
}

extension AnimalListViewModel {
    /// The listing area: earlier results stay on screen when a later query fails.
    public var content: AnimalListContent {
        guard let listing = state.listing else {
            return errorMessage.map { .failed(message: $0) } ?? .loading
        }
        return listing.animals.isEmpty ? .empty : .animals(listing.animals)
    }

    /// Said above a listing shown because nobody is within the search radius; nil otherwise.
    public var nothingNearbyNotice: String? {
        guard let listing = state.listing, listing.isFallbackForNothingNearby, !listing.animals.isEmpty else { return nil }
        if let place = listing.place { return L10n.nothingNearPlace(place.name, localizer) }
        return L10n.nothingNearby(localizer)
    }

    /// "18 pets near you" / "20 pets, newest first" / "Pets near Lyon" above a listing that has pets;
    /// nil otherwise.
    public var listingSummary: String? {
        guard let listing = state.listing, !listing.animals.isEmpty else { return nil }
        if let place = listing.place, !listing.isFallbackForNothingNearby { return L10n.nearPlace(place.name, localizer) }
        return L10n.listSummary(count: listing.animals.count, nearby: listing.queriedNearLocation, localizer)
    }

    /// The error with Retry shown above earlier results; nil when there are none or no error.
    public var errorBanner: String? {
        state.listing == nil ? nil : errorMessage
    }
}
