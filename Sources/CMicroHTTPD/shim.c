#include "CMicroHTTPD.h"
#include <string.h>

static char query_refused_marker;

void *cmhd_query_refused(void) { return &query_refused_marker; }

/* Called with the request target before MHD splits its query; `cls` carries the limit. */
static void *count_query_arguments(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void) connection;
    unsigned long limit = (unsigned long) (uintptr_t) cls;
    char *query = strchr(uri, '?');
    if (query == NULL) return NULL;
    unsigned long arguments = 1;
    for (const char *p = query + 1; *p != '\0'; p++) {
        if (*p == '&') arguments++;
    }
    if (arguments <= limit) return NULL;
    /* MHD has already found the '?' and will split there; emptying what follows leaves it no
       arguments to store. The buffer is MHD's own, writable copy of the request line. */
    query[1] = '\0';
    return &query_refused_marker;
}

struct MHD_Daemon *cmhd_start_daemon(const CMHDDaemonSettings *s) {
    unsigned int flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    if (s->is_ipv6) flags |= MHD_USE_IPv6;

    /* The logger goes first so that start-up errors reach it too. */
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) s->logger, s->context },
        { MHD_OPTION_SOCK_ADDR, 0, (void *) s->address },
        { MHD_OPTION_LISTENING_ADDRESS_REUSE, 1, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) s->connection_memory_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t) s->connection_timeout_seconds, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, (intptr_t) s->connection_limit, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t) s->per_address_connection_limit, NULL },
        { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) count_query_arguments, (void *) (uintptr_t) s->max_query_parameters },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) s->completed_handler, s->context },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) s->connection_handler, s->context },
        { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) s->unescape, s->context },
        { MHD_OPTION_END, 0, NULL },
    };
    return MHD_start_daemon(flags, 0, NULL, NULL, s->access_handler, s->context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

uint16_t cmhd_daemon_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

int cmhd_daemon_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

long long cmhd_daemon_timeout_ms(struct MHD_Daemon *daemon) {
    MHD_UNSIGNED_LONG_LONG timeout = 0;
    if (MHD_get_timeout(daemon, &timeout) != MHD_YES) return -1;
    return timeout > (MHD_UNSIGNED_LONG_LONG) 86400000 ? 86400000 : (long long) timeout;
}

struct MHD_Daemon *cmhd_connection_daemon(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_DAEMON);
    return info == NULL ? NULL : info->daemon;
}

const struct sockaddr *cmhd_connection_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

void *cmhd_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}
