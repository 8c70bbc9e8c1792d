import Foundation

/// The JSON-LD nodes of one page, gathered from all its scripts: the entities that may describe
/// the page, and every identified node so that `{"@id": "…"}` references can be followed.
///
/// Walking is iterative, with an explicit stack, so input nesting cannot exhaust the call stack.
struct JSONLDGraph {
    /// A typed node found where a page's own entities are: at the top level of a script, in a
    /// top-level array, in `@graph`, or in `mainEntity` / `mainEntityOfPage`.
    struct Entity {
        var node: JSONLDNode
        var kind: JSONLDEntityKind
        /// The `@type` name that gave ``kind``, e.g. `NewsArticle`.
        var typeName: String
        /// Its place in ``JSONLDGraph/entities``.
        var position: Int
    }

    /// Entities in document order.
    private(set) var entities: [Entity] = []
    /// Nodes with an `@id` and properties of their own; for two nodes with the same `@id`, the one
    /// with more properties (the first of equals).
    private(set) var nodesByID: [String: JSONLDNode] = [:]

    /// Properties whose objects are entities of the page too, when their holder is.
    private static let entityKeys: Set<String> = ["@graph", "mainentity", "mainentityofpage"]

    /// Adds the values parsed from one script.
    ///
    /// At most `limits.maxNodes` objects and arrays are visited across `values`, none nested deeper
    /// than `limits.maxDepth`; what lies beyond is not read. `@context` values are not walked.
    mutating func add(_ values: [JSONValue], limits: JSONLDReader.Limits) {
        var stack: [(value: JSONValue, depth: Int, isEntityPath: Bool)] = values.reversed().map { ($0, 1, true) }
        var visited = 0
        while let item = stack.popLast() {
            let (value, depth, isEntityPath) = item
            visited += 1
            guard visited <= limits.maxNodes else { return }
            let canDescend = depth < limits.maxDepth
            if value.isArray {
                guard canDescend else { continue }
                let start = stack.count
                for element in value.elements where element.isContainer {
                    stack.append((element, depth + 1, isEntityPath))
                }
                stack[start...].reverse()  // so they are visited in order
                continue
            }
            guard let node = JSONLDNode(value) else { continue }
            index(node)
            let types = node.types
            if isEntityPath, let best = JSONLDEntityKind.best(of: types) {
                entities.append(
                    Entity(node: node, kind: best.kind, typeName: best.typeName, position: entities.count)
                )
            }
            guard canDescend else { continue }
            // An untyped top-level object is a wrapper (`{"@context": …, "@graph": […]}`, or Reuters'
            // `{"article": {…}}`): its objects are the page's entities.
            let isWrapper = isEntityPath && depth == 1 && types.isEmpty
            var entityChildren: [JSONObject.Member] = []
            for member in node.properties.members
            where member.value.isContainer && member.compareKey(with: "@context") != .equal {
                if isEntityPath && (isWrapper || Self.isEntityKey(member.key)) {
                    entityChildren.append(member)
                } else {
                    stack.append((member.value, depth + 1, false))
                }
            }
            // Pushed last so they are visited next, in a fixed order.
            for child in entityChildren.sorted(by: { Self.entityOrder($0.key, $1.key) }).reversed() {
                stack.append((child.value, depth + 1, true))
            }
        }
    }

    /// Whether `key`, lowercased, is one of ``entityKeys``. Lowercasing keeps an ASCII key's length,
    /// so only ASCII keys of those lengths, or non-ASCII keys, need lowercasing.
    private static func isEntityKey(_ key: String) -> Bool {
        switch key.utf8.count {
        case 6, 10, 16: entityKeys.contains(key.lowercased())
        default: !key.isASCIIBytes && entityKeys.contains(key.lowercased())
        }
    }

    /// `@graph` first, then `mainEntity`, `mainEntityOfPage`, then other keys alphabetically.
    private static func entityOrder(_ a: String, _ b: String) -> Bool {
        let rank = { (key: String) -> Int in
            switch key.lowercased() {
            case "@graph": 0
            case "mainentity": 1
            case "mainentityofpage": 2
            default: 3
            }
        }
        return (rank(a), a) < (rank(b), b)
    }

    private mutating func index(_ node: JSONLDNode) {
        guard let id = node.id, !node.isReference else { return }
        if let existing = nodesByID[id], existing.properties.count >= node.properties.count { return }
        nodesByID[id] = node
    }

    /// The node a reference points to (`{"@id": "#author"}`), or `node` itself when it is not a
    /// reference or points nowhere. Only one reference is followed.
    func resolve(_ node: JSONLDNode) -> JSONLDNode {
        guard let id = node.id, let target = nodesByID[id] else { return node }
        return target
    }

    /// The node for a parsed value, following a reference; nil when the value is not an object.
    func resolvedNode(_ value: JSONValue) -> JSONLDNode? {
        JSONLDNode(value).map { $0.isReference ? resolve($0) : $0 }
    }

    /// The entity the page is about: the first of the most preferred kind (see ``JSONLDEntityKind``).
    /// A bare reference to a node the page does not contain (`"mainEntityOfPage": {"@type":
    /// "WebPage", "@id": "…"}`) says nothing about the page and is passed over.
    var primaryEntity: Entity? {
        var best: Entity?
        for entity in entities where entity.kind.canBePrimary {
            if let current = best, current.kind <= entity.kind { continue }
            let resolved = resolved(entity)
            if !resolved.node.isReference { best = resolved }
        }
        return best
    }

    /// The first entity of `kind`, other than `excluded`.
    func firstEntity(of kind: JSONLDEntityKind, excluding excluded: Entity? = nil) -> Entity? {
        entities.first { $0.kind == kind && $0.position != excluded?.position }.map(resolved)
    }

    /// An entity written as a reference (`{"@type": "WebPage", "@id": "…"}`) with its full node.
    private func resolved(_ entity: Entity) -> Entity {
        guard entity.node.isReference else { return entity }
        var entity = entity
        entity.node = resolve(entity.node)
        return entity
    }
}
