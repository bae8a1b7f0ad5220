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

void ccurl_response_free(ccurl_response *response);

#endif
