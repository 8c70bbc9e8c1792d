import Foundation

/// The storage behind ``MemoryMetadataCache``: a dictionary from key to slot, and an intrusive doubly
/// linked list threaded through an array of slots, most recently used first. Lookup, insertion, touch
/// and eviction are O(1); freed slots are reused.
///
/// A value type with no locking of its own; the cache keeps it behind a `Mutex`.
struct LRUTable<Value> {
    private struct Slot {
        var key: String
        var value: Value?
        var cost: Int
        var previous: Int
        var next: Int
    }

    private static var none: Int { -1 }

    private var slots: [Slot] = []
    private var index: [String: Int] = [:]
    private var freeSlots: [Int] = []
    /// The most recently used slot.
    private var head = LRUTable.none
    /// The least recently used slot.
    private var tail = LRUTable.none

    /// The number of values held.
    private(set) var count = 0
    /// The sum of the costs of the values held.
    private(set) var totalCost = 0

    init() {}

    /// The value for `key`, marking it most recently used.
    mutating func value(forKey key: String) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return slots[slot].value
    }

    /// Stores `value` for `key` as the most recently used, replacing any value stored before.
    mutating func set(_ value: Value, cost: Int, forKey key: String) {
        if let slot = index[key] {
            totalCost += cost - slots[slot].cost
            slots[slot].value = value
            slots[slot].cost = cost
            moveToFront(slot)
            return
        }
        let fresh = Slot(key: key, value: value, cost: cost, previous: Self.none, next: Self.none)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = fresh
        } else {
            slot = slots.count
            slots.append(fresh)
        }
        index[key] = slot
        linkAtFront(slot)
        count += 1
        totalCost += cost
    }

    /// Removes the value for `key`, returning it.
    @discardableResult
    mutating func removeValue(forKey key: String) -> Value? {
        guard let slot = index.removeValue(forKey: key) else { return nil }
        return free(slot)
    }

    /// Removes the least recently used value, returning its key.
    @discardableResult
    mutating func removeLeastRecentlyUsed() -> String? {
        guard tail != Self.none else { return nil }
        let slot = tail
        let key = slots[slot].key
        index[key] = nil
        free(slot)
        return key
    }

    /// Removes every value.
    mutating func removeAll() {
        self = LRUTable()
    }

    /// The keys from most to least recently used (for tests).
    var keysByRecency: [String] {
        var keys: [String] = []
        var slot = head
        while slot != Self.none {
            keys.append(slots[slot].key)
            slot = slots[slot].next
        }
        return keys
    }

    @discardableResult
    private mutating func free(_ slot: Int) -> Value? {
        unlink(slot)
        let value = slots[slot].value
        count -= 1
        totalCost -= slots[slot].cost
        slots[slot].value = nil
        slots[slot].key = ""
        slots[slot].cost = 0
        freeSlots.append(slot)
        return value
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    private mutating func linkAtFront(_ slot: Int) {
        slots[slot].previous = Self.none
        slots[slot].next = head
        if head != Self.none { slots[head].previous = slot }
        head = slot
        if tail == Self.none { tail = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let previous = slots[slot].previous
        let next = slots[slot].next
        if previous != Self.none { slots[previous].next = next } else { head = next }
        if next != Self.none { slots[next].previous = previous } else { tail = previous }
        slots[slot].previous = Self.none
        slots[slot].next = Self.none
    }
}
