/// A first-in, first-out queue whose front is removed in constant time (`Array.removeFirst`
/// moves every element), for the reads and pipeline steps a loop's sessions hold in order.
/// Removed slots are cleared at once so that what an element captures is released with it.
struct FIFO<Element> {
    private var slots: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == slots.count }
    var count: Int { slots.count - head }
    /// The oldest element, left in place.
    var first: Element? { isEmpty ? nil : slots[head] }

    /// Adds `element` behind the others.
    mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Puts `element` back in front, for one taken out and not used.
    mutating func prepend(_ element: Element) {
        if head > 0 {
            head -= 1
            slots[head] = element
        } else {
            slots.insert(element, at: 0)
        }
    }

    /// Takes out the oldest element; nil when the queue is empty.
    mutating func popFirst() -> Element? {
        guard !isEmpty, let element = slots[head] else { return nil }
        slots[head] = nil
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Empties the queue, returning its elements oldest first.
    mutating func removeAll() -> [Element] {
        defer {
            slots.removeAll(keepingCapacity: true)
            head = 0
        }
        return slots[head...].map { $0! }
    }
}
