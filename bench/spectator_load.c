/* Websocket spectators of one stream, as cheap as a client can be: the load generator of
 * bench.e2e_latency (see bench/spectator_load.py, which compiles and runs it).
 *
 *   spectator_load PORT PATH CONNECTIONS SECONDS PAUSE
 *
 * Opens CONNECTIONS websocket clients of PATH on 127.0.0.1:PORT, reads until every one of
 * them has had a frame (its join snapshot), prints "connected N", then reads for SECONDS
 * and prints one line per move frame received: "GAME PLY MICROSECONDS", the time being the
 * kernel's stamp on the read (SO_TIMESTAMPNS: when the newest bytes of the read reached
 * the socket). Pings are answered with masked pongs.
 *
 * Why C, and why PAUSE: the spectators share the machine's two cores with the server they
 * measure. A client waiting in epoll_wait is woken by every frame, and on the loopback the
 * waking is done, and paid for, inside the server's write. So the generator sleeps PAUSE
 * seconds between polls and then reads everything that came; no write wakes it. But a
 * frame that waits in its socket can be merged by the kernel with the next one, which
 * gives it the newer frame's stamp. A Python client spends about 15 us of CPU per frame
 * and needs 5 ms between polls to leave the server its cores; here a frame costs a
 * system call and a few hundred instructions, so the pause can be 2 ms and frames seldom
 * wait long enough to be merged.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct client {
    int fd;
    int heard;
    unsigned char *data;
    size_t used, size;
};

static void fail(const char *what) {
    fprintf(stderr, "spectator_load: %s: %s\n", what, strerror(errno));
    exit(2);
}

static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void send_all(int fd, const void *buf, size_t len) {
    const char *p = buf;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return; /* the server hung up: the reader finds out */
        }
        p += n;
        len -= (size_t)n;
    }
}

static int open_client(int port, const char *path) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        fail("socket");
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0)
        fail("connect");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char request[1024];
    int len = snprintf(request, sizeof request,
                       "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                       "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
                       path);
    send_all(fd, request, (size_t)len);
    return fd;
}

static void keep(struct client *c, const unsigned char *bytes, size_t len) {
    if (c->used + len > c->size) {
        size_t size = c->size ? c->size : 4096;
        while (size < c->used + len)
            size *= 2;
        c->data = realloc(c->data, size);
        if (!c->data)
            fail("realloc");
        c->size = size;
    }
    memcpy(c->data + c->used, bytes, len);
    c->used += len;
}

/* The server's answer to the upgrade; what followed it stays in the buffer. */
static void read_upgrade(struct client *c) {
    unsigned char chunk[65536];
    for (;;) {
        ssize_t n = recv(c->fd, chunk, sizeof chunk, 0);
        if (n <= 0) {
            fprintf(stderr, "spectator_load: the server closed a connection in the handshake\n");
            exit(2);
        }
        keep(c, chunk, (size_t)n);
        unsigned char *end = memmem(c->data, c->used, "\r\n\r\n", 4);
        if (end) {
            if (c->used < 12 || memcmp(c->data, "HTTP/1.1 101", 12) != 0) {
                fprintf(stderr, "spectator_load: refused: %.*s\n", 40, (char *)c->data);
                exit(2);
            }
            size_t head = (size_t)(end - c->data) + 4;
            memmove(c->data, c->data + head, c->used - head);
            c->used -= head;
            return;
        }
    }
}

/* The decimal number after "key": in the payload, or -1. */
static long number_after(const unsigned char *p, size_t len, const char *key) {
    const unsigned char *at = memmem(p, len, key, strlen(key));
    if (!at)
        return -1;
    at += strlen(key);
    long value = 0;
    int digits = 0;
    while (at < p + len && *at >= '0' && *at <= '9') {
        value = value * 10 + (*at++ - '0');
        digits++;
    }
    return digits ? value : -1;
}

static void pong(int fd, const unsigned char *payload, size_t len) {
    unsigned char frame[2 + 4 + 125];
    if (len > 125)
        len = 125;
    frame[0] = 0x8A;
    frame[1] = (unsigned char)(0x80 | len);
    unsigned char mask[4] = {0x12, 0x34, 0x56, 0x78};
    memcpy(frame + 2, mask, 4);
    for (size_t i = 0; i < len; i++)
        frame[6 + i] = payload[i] ^ mask[i % 4];
    send_all(fd, frame, 6 + len);
}

/* Hand on the whole frames in the client's buffer; keep the rest. */
static void frames(struct client *c, int64_t stamp, int report) {
    size_t at = 0;
    while (c->used - at >= 2) {
        const unsigned char *f = c->data + at;
        size_t size = f[1] & 0x7F, start = 2;
        if (size == 126) {
            if (c->used - at < 4)
                break;
            size = ((size_t)f[2] << 8) | f[3];
            start = 4;
        } else if (size == 127) {
            if (c->used - at < 10)
                break;
            size = 0;
            for (int i = 2; i < 10; i++)
                size = (size << 8) | f[i];
            start = 10;
        }
        if (c->used - at < start + size)
            break;
        const unsigned char *payload = f + start;
        c->heard = 1;
        if ((f[0] & 0x0F) == 0x9) {
            pong(c->fd, payload, size);
        } else if (report && memmem(payload, size, "\"kind\":\"move\"", 13)) {
            long game = number_after(payload, size, "\"game\":");
            long ply = number_after(payload, size, "\"ply\":");
            printf("%ld %ld %lld\n", game, ply, (long long)stamp);
        }
        at += start + size;
    }
    memmove(c->data, c->data + at, c->used - at);
    c->used -= at;
}

static int64_t stamp_of(struct msghdr *msg) {
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR(msg, cm)) {
        if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SO_TIMESTAMPNS) {
            struct timespec ts;
            memcpy(&ts, CMSG_DATA(cm), sizeof ts);
            return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
        }
    }
    return now_us();
}

/* Read every readable socket until the deadline, or until all have been heard from. */
static int follow(int ep, struct client *clients, int count, int64_t until, int report,
                  double pause) {
    struct timespec nap = {.tv_sec = 0, .tv_nsec = (long)(pause * 1e9)};
    static unsigned char chunk[1 << 18];
    char control[CMSG_SPACE(sizeof(struct timespec))];
    struct epoll_event ready[256];
    int heard = 0;
    for (int i = 0; i < count; i++)
        heard += clients[i].heard;
    while (now_us() < until && (report || heard < count)) {
        int n = epoll_wait(ep, ready, 256, pause > 0 ? 0 : 100);
        if (n < 0 && errno != EINTR)
            fail("epoll_wait");
        for (int i = 0; i < n; i++) {
            struct client *c = &clients[ready[i].data.u32];
            struct iovec iov = {.iov_base = chunk, .iov_len = sizeof chunk};
            struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1,
                                 .msg_control = control, .msg_controllen = sizeof control};
            ssize_t got = recvmsg(c->fd, &msg, MSG_DONTWAIT);
            if (got < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (got <= 0) {
                epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                continue;
            }
            int before = c->heard;
            keep(c, chunk, (size_t)got);
            frames(c, stamp_of(&msg), report);
            heard += c->heard - before;
        }
        if (pause > 0 && n < 256)
            nanosleep(&nap, NULL);
    }
    return heard;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: spectator_load PORT PATH CONNECTIONS SECONDS PAUSE\n");
        return 2;
    }
    int port = atoi(argv[1]), count = atoi(argv[3]);
    double seconds = atof(argv[4]), pause = atof(argv[5]);
    struct client *clients = calloc((size_t)count, sizeof *clients);
    int ep = epoll_create1(0);
    if (!clients || ep < 0)
        fail("setup");
    const int batch = 250; /* opened before their answers are read: the listen backlog */
    for (int start = 0; start < count; start += batch) {
        int end = start + batch < count ? start + batch : count;
        for (int i = start; i < end; i++)
            clients[i].fd = open_client(port, argv[2]);
        for (int i = start; i < end; i++) {
            struct client *c = &clients[i];
            read_upgrade(c);
            int one = 1;
            setsockopt(c->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
            struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
            if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev) < 0)
                fail("epoll_ctl");
            frames(c, now_us(), 0);
        }
    }
    int heard = follow(ep, clients, count, now_us() + 120 * 1000000LL, 0, 0.0);
    if (heard < count) {
        fprintf(stderr, "spectator_load: %d spectators never served\n", count - heard);
        return 1;
    }
    printf("connected %d\n", count);
    fflush(stdout);
    follow(ep, clients, count, now_us() + (int64_t)(seconds * 1e6), 1, pause);
    fflush(stdout);
    for (int i = 0; i < count; i++)
        close(clients[i].fd);
    return 0;
}
