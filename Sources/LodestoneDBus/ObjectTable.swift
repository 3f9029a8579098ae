import CSystemd
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An sd-bus vtable that Swift owns: sd-bus keeps pointers to the entries and their
/// names for as long as the object is registered, so both live here until `deinit`.
final class ObjectTable {
    enum Member {
        case method(String, sd_bus_message_handler_t)
        case property(String, signature: String, sd_bus_property_get_t)
    }

    let entries: UnsafeMutablePointer<sd_bus_vtable>
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(_ members: [Member]) {
        entries = .allocate(capacity: members.count + 2)
        entries[0] = lodestone_vtable_start()
        for (i, member) in members.enumerated() {
            switch member {
            case .method(let name, let handler):
                entries[i + 1] = lodestone_vtable_method(keep(name), handler)
            case .property(let name, let signature, let getter):
                entries[i + 1] = lodestone_vtable_property(keep(name), keep(signature), getter)
            }
        }
        entries[members.count + 1] = lodestone_vtable_end()
    }

    deinit {
        entries.deallocate()
        for s in strings { free(s) }
    }

    private func keep(_ s: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(s)!
        strings.append(copy)
        return copy
    }
}
