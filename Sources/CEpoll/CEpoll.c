#define _GNU_SOURCE
#include "CEpoll.h"

#ifdef __linux__
int cepoll_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length) {
    return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
#endif
