#ifndef CEPOLL_H
#define CEPOLL_H
// Glibc's Swift overlay does not export epoll or eventfd; this target re-exports them
// so the HTTP layer can drive non-blocking sockets from one event loop per core.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#endif
#endif
