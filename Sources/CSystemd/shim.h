// libsystemd's sd-bus (Debian libsystemd-dev), found through pkg-config `libsystemd`.
#include <systemd/sd-bus.h>

// sd-bus object tables are written with C macros that Swift cannot import; these
// inline helpers expand them one entry at a time, so Swift can fill a table it owns.

static inline sd_bus_vtable lodestone_vtable_start(void) {
    return (sd_bus_vtable)SD_BUS_VTABLE_START(0);
}

/// A method without arguments or results that any caller may reach; the handler decides.
static inline sd_bus_vtable lodestone_vtable_method(const char *member, sd_bus_message_handler_t handler) {
    return (sd_bus_vtable)SD_BUS_METHOD(member, "", "", handler, SD_BUS_VTABLE_UNPRIVILEGED);
}

/// A read-only property whose changes are announced with PropertiesChanged.
static inline sd_bus_vtable lodestone_vtable_property(const char *member, const char *signature,
                                                      sd_bus_property_get_t getter) {
    return (sd_bus_vtable)SD_BUS_PROPERTY(member, signature, getter, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE);
}

static inline sd_bus_vtable lodestone_vtable_end(void) {
    return (sd_bus_vtable)SD_BUS_VTABLE_END;
}
