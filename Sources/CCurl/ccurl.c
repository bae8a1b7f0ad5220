#include "CCurl.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few libcurl entry points and constants used, declared here so no libcurl headers are
   needed to build; the values are part of libcurl's stable ABI (curl.h). */
typedef void CURL;
struct curl_slist;
typedef int (*curl_global_init_fn)(long);
typedef CURL *(*curl_easy_init_fn)(void);
typedef int (*curl_easy_setopt_fn)(CURL *, int, ...);
typedef int (*curl_easy_perform_fn)(CURL *);
typedef int (*curl_easy_getinfo_fn)(CURL *, int, ...);
typedef void (*curl_easy_cleanup_fn)(CURL *);
typedef struct curl_slist *(*curl_slist_append_fn)(struct curl_slist *, const char *);
typedef void (*curl_slist_free_all_fn)(struct curl_slist *);

enum {
    OPT_TIMEOUT = 13,
    OPT_POSTFIELDSIZE = 60,
    OPT_NOSIGNAL = 99,
    OPT_WRITEDATA = 10001,
    OPT_URL = 10002,
    OPT_ERRORBUFFER = 10010,
    OPT_POSTFIELDS = 10015,
    OPT_HTTPHEADER = 10023,
    OPT_CUSTOMREQUEST = 10036,
    OPT_WRITEFUNCTION = 20011,
    OPT_FOLLOWLOCATION = 52,
    OPT_PROTOCOLS = 181,
    OPT_REDIR_PROTOCOLS = 182,
    OPT_CONNECTTIMEOUT_MS = 156,
    OPT_TIMEOUT_MS = 155,
    OPT_PROXY = 10004,
    OPT_OPENSOCKETFUNCTION = 20163,
    OPT_OPENSOCKETDATA = 10164,
    OPT_POST = 47,
    PROTO_HTTP = 1,
    PROTO_HTTPS = 2,
    SOCKET_BAD = -1,
    INFO_RESPONSE_CODE = 0x200000 + 2,
    GLOBAL_DEFAULT = 3,
    ERROR_SIZE = 256,
};

static struct {
    curl_easy_init_fn easy_init;
    curl_easy_setopt_fn easy_setopt;
    curl_easy_perform_fn easy_perform;
    curl_easy_getinfo_fn easy_getinfo;
    curl_easy_cleanup_fn easy_cleanup;
    curl_slist_append_fn slist_append;
    curl_slist_free_all_fn slist_free_all;
    char error[256];
} curl;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW);
    if (!library) library = dlopen("libcurl.so", RTLD_NOW);
    if (!library) {
        snprintf(curl.error, sizeof curl.error, "libcurl is not installed (libcurl.so.4): %s", dlerror());
        return;
    }
    curl_global_init_fn global_init = (curl_global_init_fn)dlsym(library, "curl_global_init");
    curl.easy_init = (curl_easy_init_fn)dlsym(library, "curl_easy_init");
    curl.easy_setopt = (curl_easy_setopt_fn)dlsym(library, "curl_easy_setopt");
    curl.easy_perform = (curl_easy_perform_fn)dlsym(library, "curl_easy_perform");
    curl.easy_getinfo = (curl_easy_getinfo_fn)dlsym(library, "curl_easy_getinfo");
    curl.easy_cleanup = (curl_easy_cleanup_fn)dlsym(library, "curl_easy_cleanup");
    curl.slist_append = (curl_slist_append_fn)dlsym(library, "curl_slist_append");
    curl.slist_free_all = (curl_slist_free_all_fn)dlsym(library, "curl_slist_free_all");
    if (!global_init || !curl.easy_init || !curl.easy_setopt || !curl.easy_perform || !curl.easy_getinfo
        || !curl.easy_cleanup || !curl.slist_append || !curl.slist_free_all) {
        snprintf(curl.error, sizeof curl.error, "libcurl lacks an expected function");
        curl.easy_init = NULL;
        return;
    }
    global_init(GLOBAL_DEFAULT);
}

struct sink {
    ccurl_response *response;
    size_t max;
    int overflow;
};

static size_t collect(char *data, size_t size, size_t count, void *context) {
    struct sink *sink = context;
    size_t bytes = size * count;
    if (sink->response->length + bytes > sink->max) {
        sink->overflow = 1;
        return 0;
    }
    unsigned char *grown = realloc(sink->response->body, sink->response->length + bytes + 1);
    if (!grown) return 0;
    memcpy(grown + sink->response->length, data, bytes);
    sink->response->body = grown;
    sink->response->length += bytes;
    return bytes;
}

int ccurl_request(const char *method, const char *url, const char *const *headers, int header_count,
                  const void *body, size_t body_length, long timeout_seconds, size_t max_body,
                  ccurl_response *out) {
    memset(out, 0, sizeof *out);
    pthread_once(&loaded, load);
    if (!curl.easy_init) {
        snprintf(out->error, sizeof out->error, "%s", curl.error);
        return -1;
    }
    CURL *handle = curl.easy_init();
    if (!handle) {
        snprintf(out->error, sizeof out->error, "curl_easy_init failed");
        return -1;
    }
    struct curl_slist *list = NULL;
    for (int i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
    struct sink sink = {out, max_body, 0};
    char error[ERROR_SIZE] = {0};
    curl.easy_setopt(handle, OPT_URL, url);
    curl.easy_setopt(handle, OPT_CUSTOMREQUEST, method);
    curl.easy_setopt(handle, OPT_HTTPHEADER, list);
    if (body) {
        curl.easy_setopt(handle, OPT_POSTFIELDS, body);
        curl.easy_setopt(handle, OPT_POSTFIELDSIZE, (long)body_length);
    }
    curl.easy_setopt(handle, OPT_TIMEOUT, timeout_seconds);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, collect);
    curl.easy_setopt(handle, OPT_WRITEDATA, &sink);
    int result = curl.easy_perform(handle);
    if (result == 0) curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &out->status);
    curl.easy_cleanup(handle);
    curl.slist_free_all(list);
    if (result != 0) {
        if (sink.overflow) snprintf(out->error, sizeof out->error, "the response is larger than %zu bytes", max_body);
        else snprintf(out->error, sizeof out->error, "%s", error[0] ? error : "the request failed");
        return -1;
    }
    return 0;
}

/* libcurl's struct curl_sockaddr (curl.h), handed to the open-socket callback. */
struct curl_sockaddr {
    int family;
    int socktype;
    int protocol;
    unsigned int addrlen;
    struct sockaddr addr;
};

struct guard {
    const ccurl_delivery_options *options;
    int refused;
};

/* Opens the socket only for an address the check allows; a refused one fails the connect
   (CURL_SOCKET_BAD), and libcurl tries the name's next address, if any. */
static int open_checked(void *context, int purpose, struct curl_sockaddr *address) {
    (void)purpose;
    struct guard *guard = context;
    const unsigned char *bytes = NULL;
    if (address->family == AF_INET) {
        bytes = (const unsigned char *)&((struct sockaddr_in *)&address->addr)->sin_addr;
    } else if (address->family == AF_INET6) {
        bytes = (const unsigned char *)&((struct sockaddr_in6 *)&address->addr)->sin6_addr;
    }
    if (!bytes || !guard->options->check(address->family == AF_INET ? 4 : 16, bytes, guard->options->check_context)) {
        guard->refused = 1;
        return SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

struct kept {
    ccurl_response *response;
    size_t max;
};

/* Keeps the first bytes of the answer and drops the rest, so a large or endless answer costs
   no memory; the total timeout bounds how long it is read. */
static size_t keep_head(char *data, size_t size, size_t count, void *context) {
    struct kept *kept = context;
    size_t bytes = size * count;
    size_t room = kept->max > kept->response->length ? kept->max - kept->response->length : 0;
    size_t taken = bytes < room ? bytes : room;
    if (taken > 0) {
        unsigned char *grown = realloc(kept->response->body, kept->response->length + taken + 1);
        if (!grown) return 0;
        memcpy(grown + kept->response->length, data, taken);
        kept->response->body = grown;
        kept->response->length += taken;
    }
    return bytes;
}

int ccurl_deliver(const char *url, const char *const *headers, int header_count, const void *body, size_t body_length,
                  const ccurl_delivery_options *options, ccurl_response *out) {
    memset(out, 0, sizeof *out);
    pthread_once(&loaded, load);
    if (!curl.easy_init) {
        snprintf(out->error, sizeof out->error, "%s", curl.error);
        return -1;
    }
    CURL *handle = curl.easy_init();
    if (!handle) {
        snprintf(out->error, sizeof out->error, "curl_easy_init failed");
        return -1;
    }
    struct curl_slist *list = NULL;
    for (int i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
    list = curl.slist_append(list, "Expect:");
    struct kept kept = {out, options->max_kept};
    struct guard guard = {options, 0};
    char error[ERROR_SIZE] = {0};
    long protocols = PROTO_HTTPS | (options->allow_http ? PROTO_HTTP : 0);
    curl.easy_setopt(handle, OPT_URL, url);
    curl.easy_setopt(handle, OPT_PROTOCOLS, protocols);
    curl.easy_setopt(handle, OPT_REDIR_PROTOCOLS, protocols);
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, OPT_PROXY, "");
    curl.easy_setopt(handle, OPT_POST, 1L);
    curl.easy_setopt(handle, OPT_HTTPHEADER, list);
    curl.easy_setopt(handle, OPT_POSTFIELDS, body);
    curl.easy_setopt(handle, OPT_POSTFIELDSIZE, (long)body_length);
    curl.easy_setopt(handle, OPT_CONNECTTIMEOUT_MS, options->connect_timeout_ms);
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, options->total_timeout_ms);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, keep_head);
    curl.easy_setopt(handle, OPT_WRITEDATA, &kept);
    curl.easy_setopt(handle, OPT_OPENSOCKETFUNCTION, open_checked);
    curl.easy_setopt(handle, OPT_OPENSOCKETDATA, &guard);
    int result = curl.easy_perform(handle);
    curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &out->status);
    curl.easy_cleanup(handle);
    curl.slist_free_all(list);
    if (result != 0) {
        if (guard.refused) snprintf(out->error, sizeof out->error, "the destination's address is not allowed for webhooks");
        else snprintf(out->error, sizeof out->error, "%s", error[0] ? error : "the request failed");
        return -1;
    }
    return 0;
}

void ccurl_response_free(ccurl_response *response) {
    free(response->body);
    response->body = NULL;
    response->length = 0;
}
