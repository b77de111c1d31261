// The emulator's transport: the device files a tool opens (Unix sockets <dir>/<prefix>_{h2c_K,c2h_K,user}), one
// connection per open file, requests framed by zkemu_proto.h and answered exactly once.
#ifndef ZKEMU_TRANSPORT_H
#define ZKEMU_TRANSPORT_H
#include "zkemu_bus.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

enum Kind { H2C, C2H, USER };

struct Conn {
    int fd;
    Kind kind;
    int ch;
    std::vector<uint8_t> in; // bytes of a frame not complete yet
    bool dead = false;
};

struct Transport {
    struct Listener { int fd; Kind kind; int ch; std::string path; };
    struct Handlers {
        std::function<void(Op &&)> request; // a complete request (not a CANCEL)
        std::function<void(Conn *)> cancel; // ZKEMU_CANCEL: end c's request in flight
        std::function<void(Conn *)> closed; // c went away: drop its requests without an answer
    };
    std::string dir, prefix;
    std::vector<Listener> listeners;
    std::vector<std::unique_ptr<Conn>> conns;

    Transport(const std::string &dir, const std::string &prefix) : dir(dir), prefix(prefix) {}
    ~Transport();
    bool open_dir();                 // false: errno says why
    void listen(Kind k, int ch);     // exits with a message when the socket cannot be made
    // waits up to wait_ms for connections and bytes, then hands complete frames to h; false: poll failed
    bool poll_once(int wait_ms, const Handlers &h);
    void reply(Op &o, int status, uint64_t len); // the answer to o (READ: with o's bytes)
    void vanish();                   // a reconfiguring FPGA: device files and connections gone
    void reappear();                 // the same device files again
    bool connected() const { return !conns.empty(); }
};
#endif
