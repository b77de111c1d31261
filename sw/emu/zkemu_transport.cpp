// Device files and the wire protocol (zkemu_proto.h) of the emulator.
#include "zkemu_transport.h"
#include "zkemu_proto.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

Transport::~Transport() {
    for (auto &l : listeners) { close(l.fd); unlink(l.path.c_str()); }
    for (auto &c : conns) close(c->fd);
}

bool Transport::open_dir() { return !mkdir(dir.c_str(), 0755) || errno == EEXIST; }

void Transport::listen(Kind k, int ch) {
    std::string name = dir + "/" + prefix + (k == USER ? "_user" : (k == H2C ? "_h2c_" : "_c2h_") + std::to_string(ch));
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    if (name.size() >= sizeof a.sun_path) { fprintf(stderr, "zkemu: path too long: %s\n", name.c_str()); exit(2); }
    strcpy(a.sun_path, name.c_str());
    unlink(name.c_str());
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (sockaddr *)&a, sizeof a) || ::listen(fd, 16)) {
        fprintf(stderr, "zkemu: %s: %s\n", name.c_str(), strerror(errno));
        exit(1);
    }
    listeners.push_back({fd, k, ch, name});
}

static void send_all(Conn &c, const void *p, size_t n) {
    const uint8_t *b = static_cast<const uint8_t *>(p);
    while (n && !c.dead) {
        ssize_t r = ::send(c.fd, b, n, MSG_NOSIGNAL);
        if (r < 0 && (errno == EINTR || errno == EAGAIN)) {
            pollfd q{c.fd, POLLOUT, 0};
            poll(&q, 1, 100);
            continue;
        }
        if (r <= 0) { c.dead = true; return; }
        b += r;
        n -= (size_t)r;
    }
}

void Transport::reply(Op &o, int st, uint64_t len) {
    zkemu_rep r{st, 0, len};
    send_all(*o.conn, &r, sizeof r);
    if (o.kind == ZKEMU_READ && len) send_all(*o.conn, o.data.data(), len);
}

// complete frames of c.in to the handlers
static void frames(Conn &c, const Transport::Handlers &h) {
    while (c.in.size() >= sizeof(zkemu_req)) {
        zkemu_req q;
        memcpy(&q, c.in.data(), sizeof q);
        size_t need = sizeof q + (q.op == ZKEMU_WRITE ? q.len : 0);
        if (c.in.size() < need) return;
        Op o{&c, q.op, q.arg, q.len, {}, 0};
        if (q.op == ZKEMU_WRITE) o.data.assign(c.in.begin() + sizeof q, c.in.begin() + (long)need);
        c.in.erase(c.in.begin(), c.in.begin() + (long)need);
        if (q.op == ZKEMU_CANCEL) h.cancel(&c);
        else h.request(std::move(o));
    }
}

bool Transport::poll_once(int wait_ms, const Handlers &h) {
    std::vector<pollfd> pf;
    for (auto &l : listeners) pf.push_back({l.fd, POLLIN, 0});
    for (auto &c : conns) pf.push_back({c->fd, POLLIN, 0});
    if (poll(pf.data(), pf.size(), wait_ms) < 0 && errno != EINTR) return false;
    size_t nl = listeners.size(), nc = conns.size();
    for (size_t i = 0; i < nl; i++)
        if (pf[i].revents & POLLIN) {
            int fd = accept4(listeners[i].fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd >= 0) conns.push_back(std::unique_ptr<Conn>(new Conn{fd, listeners[i].kind, listeners[i].ch, {}}));
        }
    for (size_t i = 0; i < nc; i++) {
        Conn &c = *conns[i];
        if (!(pf[nl + i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        uint8_t buf[65536];
        for (;;) {
            ssize_t r = recv(c.fd, buf, sizeof buf, 0);
            if (r > 0) { c.in.insert(c.in.end(), buf, buf + r); continue; }
            if (r == 0 || (errno != EAGAIN && errno != EINTR)) c.dead = true;
            break;
        }
        frames(c, h);
    }
    for (auto it = conns.begin(); it != conns.end();) { // closed: its requests go with it
        if ((*it)->dead) {
            h.closed(it->get());
            close((*it)->fd);
            it = conns.erase(it);
        } else ++it;
    }
    return true;
}

void Transport::vanish() {
    for (auto &c : conns) close(c->fd);
    conns.clear();
    for (auto &l : listeners) { close(l.fd); unlink(l.path.c_str()); }
}

void Transport::reappear() {
    std::vector<Listener> old;
    old.swap(listeners);
    for (auto &l : old) listen(l.kind, l.ch);
}
