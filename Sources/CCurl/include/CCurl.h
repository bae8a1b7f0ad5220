#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>

/// One HTTP exchange made with libcurl, loaded with dlopen() on first use: the service binary
/// does not link libcurl, so `serve` runs where it is not installed, and only the client
/// commands (`publish`) need it.
typedef struct ccurl_response {
    long status;             /* HTTP status, 0 when no response arrived */
    unsigned char *body;     /* malloc'd; free with ccurl_response_free */
    size_t length;
    char error[256];         /* why the exchange failed, when it did */
} ccurl_response;

/// Sends `method` to `url` with the headers ("Name: value") and body; waits at most
/// `timeout_seconds`; keeps at most `max_body` bytes of the answer. Returns 0 when a response
/// arrived (any status), -1 otherwise with `out->error` set.
int ccurl_request(const char *method, const char *url, const char *const *headers, int header_count,
                  const void *body, size_t body_length, long timeout_seconds, size_t max_body,
                  ccurl_response *out);

/// Decides whether a webhook may connect to an address: `length` bytes, 4 for IPv4 and 16 for
/// IPv6. Returns nonzero to allow. Called by libcurl for every socket it
/// opens, so the address checked is the address connected to, whatever DNS said before.
typedef int (*ccurl_address_check)(int length, const unsigned char *address, void *context);

/// What a webhook delivery may do: the timeouts, the bytes of the answer kept (the rest is
/// read and dropped, within the total timeout), whether plain http is allowed. Redirects are
/// never followed and proxies from the environment are never used.
typedef struct ccurl_delivery_options {
    long connect_timeout_ms;
    long total_timeout_ms;
    size_t max_kept;
    int allow_http;
    ccurl_address_check check;
    void *check_context;
} ccurl_delivery_options;

/// POSTs `body` to `url` as a webhook delivery. Returns 0 when a response arrived (any status;
/// the first `max_kept` bytes of its body in `out`), -1 otherwise with `out->error` set (also
/// when the address check refused every address: the error then says so).
int ccurl_deliver(const char *url, const char *const *headers, int header_count, const void *body, size_t body_length,
                  const ccurl_delivery_options *options, ccurl_response *out);

void ccurl_response_free(ccurl_response *response);

#endif
