#ifndef CEPOLL_SHIM_H
#define CEPOLL_SHIM_H
/* Linux's epoll and eventfd, which Swift's Glibc module does not import; only EventLoop uses them. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
