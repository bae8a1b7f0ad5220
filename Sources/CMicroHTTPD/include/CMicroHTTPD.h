#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H
/*
 * The smallest C surface HTTPServer needs from libmicrohttpd.
 *
 * Everything Swift can call directly (MHD_queue_response, MHD_get_connection_values_n,
 * MHD_quiesce_daemon, ...) is called directly. Only what Swift cannot express lives here:
 *
 * - cmhd_start_daemon: MHD_start_daemon takes its options as C varargs, which Swift cannot
 *   call; this passes them with MHD_OPTION_ARRAY from a fixed-signature struct. The MHD_FLAG
 *   combination is built here too, so the daemon mode is decided in one visible place.
 * - cmhd_daemon_port: MHD_get_daemon_info is variadic as well; the bound port is needed when
 *   the first daemon was started on port 0 and the others must join the same port.
 * - cmhd_query_refused: libmicrohttpd 0.9.75 stores every query argument in the connection's
 *   memory pool and, when the pool runs out (about 500 arguments), closes the connection
 *   without an answer. A URI callback counts the arguments first; past the limit it empties
 *   the query in place (so MHD stores none) and marks the request with this address, which the
 *   access handler then answers with a 400.
 *   (A function, not a global: Swift 6 treats C globals as shared mutable state.)
 * - cmhd_daemon_epoll_fd, cmhd_daemon_timeout_ms: MHD_get_daemon_info is variadic, and
 *   MHD_get_timeout's MHD_UNSIGNED_LONG_LONG out-parameter is folded into one signed result;
 *   the event loop needs both to wait on the daemon beside other descriptors.
 * - cmhd_connection_daemon, cmhd_connection_fd, cmhd_connection_client_address:
 *   MHD_get_connection_info is variadic too; a resumed connection's daemon must be run, since
 *   without its own thread it has no inter-thread channel to notice the resume; the socket is
 *   what the receive deadline shuts down when a client sends too slowly (MHD's own timeout only
 *   measures idleness, so a byte a second keeps a connection forever); the client's address is
 *   what the waiting room counts a client's parked requests by.
 * - cmhd_connection_socket_context: the same, for the pointer the connection callback stored in
 *   its socket context (the connection's receive clock and waiting-room seat), so a request
 *   reaches its connection's state without a table lookup.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD has no typedef for the MHD_OPTION_UNESCAPE_CALLBACK function. */
typedef size_t (*CMHDUnescapeCallback)(void *cls, struct MHD_Connection *connection, char *s);

/* Everything one daemon needs; all pointers are borrowed for the duration of the call,
   except `context`, which MHD hands back to every callback for the daemon's lifetime. */
typedef struct CMHDDaemonSettings {
    const struct sockaddr *address;        /* sockaddr_in, or sockaddr_in6 when is_ipv6 */
    bool is_ipv6;
    size_t connection_memory_limit;        /* bytes per connection (headers + read buffer) */
    unsigned int connection_timeout_seconds;
    unsigned int connection_limit;
    unsigned int per_address_connection_limit;  /* 0: none */
    unsigned int max_query_parameters;
    MHD_AccessHandlerCallback access_handler;
    MHD_RequestCompletedCallback completed_handler;
    MHD_NotifyConnectionCallback connection_handler;
    CMHDUnescapeCallback unescape;
    MHD_LogCallback logger;
    void *context;
} CMHDDaemonSettings;

/* One epoll daemon without a thread of its own (the caller's event loop waits on its epoll
   descriptor and calls MHD_run), bound with SO_REUSEPORT so that several of them share one
   port. Suspend/resume is allowed (it brings the ITC through which a resume from another
   thread wakes the loop): requests wait for the database or a handler thread suspended.
   NULL on failure. */
struct MHD_Daemon *cmhd_start_daemon(const CMHDDaemonSettings *settings);

/* The request context (MHD's con_cls) of a request whose query had too many arguments. */
void *cmhd_query_refused(void);

/* The port the daemon's listening socket is bound to, 0 if unknown. */
uint16_t cmhd_daemon_port(struct MHD_Daemon *daemon);

/* The daemon's epoll descriptor, which becomes readable when MHD_run has work; -1 if unknown. */
int cmhd_daemon_epoll_fd(struct MHD_Daemon *daemon);

/* Milliseconds until MHD_run must be called even if nothing is readable (a connection
   timeout; 0 when MHD already has work queued); -1 when there is no such deadline. */
long long cmhd_daemon_timeout_ms(struct MHD_Daemon *daemon);

/* The daemon serving the connection: a resume is followed by MHD_run on it. NULL if unknown. */
struct MHD_Daemon *cmhd_connection_daemon(struct MHD_Connection *connection);

/* The connection's socket, -1 if unknown. */
int cmhd_connection_fd(struct MHD_Connection *connection);

/* The client's address (sockaddr_in or sockaddr_in6, MHD's own storage, valid while the
   connection is open); NULL if unknown. */
const struct sockaddr *cmhd_connection_client_address(struct MHD_Connection *connection);

/* What the connection callback stored in the connection's socket context; NULL if nothing. */
void *cmhd_connection_socket_context(struct MHD_Connection *connection);

#endif
