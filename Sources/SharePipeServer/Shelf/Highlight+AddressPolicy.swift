import Foundation
import LinkPreview

extension Highlight.Card {
    /// The card without an icon or image URL the fetcher's address policy refuses (a sharer's
    /// provided `imageURL` on `169.254.169.254`, a preview stored before previews were held to the
    /// policy): whoever is shown the card would load it, from their own network, in the server's
    /// stead. The server's own allowances (`--allow-fetch-from`, `--allow-fetch-port`) count.
    func permitted(by policy: AddressPolicy) -> Highlight.Card {
        var card = self
        if let url = card.iconURL, !policy.permits(url) { card.iconURL = nil }
        if let url = card.imageURL, !policy.permits(url) { card.imageURL = nil }
        return card
    }
}
