/// How a shelf item changed for its user.
public enum ShelfChange: String, Sendable, Hashable, Codable {
    case added, removed, updated
}
