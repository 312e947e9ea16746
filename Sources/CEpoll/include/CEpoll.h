#ifndef CEPOLL_H
#define CEPOLL_H
// Glibc's Swift overlay does not export epoll or eventfd; this target re-exports them
// so the HTTP layer can drive non-blocking sockets from one event loop per core.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC: one system call per accepted connection
/// instead of accept + two fcntl. accept4 is a GNU extension the Glibc module does not export.
int cepoll_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length);
#endif
#endif
