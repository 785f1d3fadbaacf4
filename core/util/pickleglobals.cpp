#include "core/util/pickleglobals.h"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <unordered_map>

namespace lbd {
namespace {

// A ResNet-50 state dict memoises about 5,000 objects; the bound keeps a hostile pickle's memo
// (LONG_BINPUT with ever new indices) from costing more than some 100 MB.
constexpr size_t kMaxMemo = size_t(1) << 20;
constexpr size_t kMaxNameBytes = 256;

class GlobalScanner {
public:
    explicit GlobalScanner(const std::string& bytes) : m_bytes(bytes) {}

    std::vector<std::string> run()
    {
        for (;;) {
            const size_t at = m_pos;
            const auto op = static_cast<unsigned char>(byte(at));
            if (op == '.') {
                return m_globals;
            }
            step(op, at);
        }
    }

private:
    [[noreturn]] void fail(size_t at, const std::string& what) const
    {
        throw std::runtime_error("pickle byte " + std::to_string(at) + ": " + what);
    }

    char byte(size_t at)
    {
        if (m_pos >= m_bytes.size()) {
            fail(at, "ends before STOP");
        }
        return m_bytes[m_pos++];
    }

    uint64_t little(size_t count, size_t at)
    {
        if (m_bytes.size() - m_pos < count) {
            fail(at, "ends inside an argument");
        }
        uint64_t value = 0;
        for (size_t k = 0; k < count; ++k) {
            value |= uint64_t(static_cast<unsigned char>(m_bytes[m_pos + k])) << (8 * k);
        }
        m_pos += count;
        return value;
    }

    std::string text(uint64_t length, size_t at)
    {
        if (length > m_bytes.size() - m_pos) {
            fail(at, "a string of " + std::to_string(length) + " bytes runs past the end");
        }
        std::string s = m_bytes.substr(m_pos, static_cast<size_t>(length));
        m_pos += static_cast<size_t>(length);
        return s;
    }

    std::string line(size_t at)
    {
        const size_t end = m_bytes.find('\n', m_pos);
        if (end == std::string::npos) {
            fail(at, "an argument line has no end");
        }
        std::string s = m_bytes.substr(m_pos, end - m_pos);
        m_pos = end + 1;
        return s;
    }

    // The last two values pushed, as far as STACK_GLOBAL needs them: a string constant or
    // "something else" (nullopt).
    void pushed(std::optional<std::string> value)
    {
        if (value && value->size() > kMaxNameBytes) {
            value.reset(); // no module or class name is this long; and the memo stays small
        }
        m_last[0] = std::move(m_last[1]);
        m_last[1] = std::move(value);
    }

    void memoize(uint64_t index)
    {
        if (m_memo.size() >= kMaxMemo) {
            throw std::runtime_error("pickle: more than " + std::to_string(kMaxMemo) + " memo entries (not a file of tensors)");
        }
        m_memo[index] = m_last[1];
    }

    void recall(uint64_t index, size_t at)
    {
        const auto it = m_memo.find(index);
        if (it == m_memo.end()) {
            fail(at, "reads a memo entry that was never stored");
        }
        pushed(it->second);
    }

    void step(unsigned char op, size_t at)
    {
        switch (op) {
        // Framing and the memo: no value of their own.
        case 0x80: byte(at); return;                                   // PROTO
        case 0x95: little(8, at); return;                              // FRAME
        case 'q': memoize(little(1, at)); return;                      // BINPUT
        case 'r': memoize(little(4, at)); return;                      // LONG_BINPUT
        case 'p': memoize(std::strtoull(line(at).c_str(), nullptr, 10)); return; // PUT
        case 0x94: memoize(m_memo.size()); return;                     // MEMOIZE
        case 'h': recall(little(1, at), at); return;                   // BINGET
        case 'j': recall(little(4, at), at); return;                   // LONG_BINGET
        case 'g': recall(std::strtoull(line(at).c_str(), nullptr, 10), at); return; // GET
        // String constants: the names a STACK_GLOBAL may take.
        case 0x8c: pushed(text(little(1, at), at)); return;            // SHORT_BINUNICODE
        case 'X': pushed(text(little(4, at), at)); return;             // BINUNICODE
        case 0x8d: pushed(text(little(8, at), at)); return;            // BINUNICODE8
        case 'U': pushed(text(little(1, at), at)); return;             // SHORT_BINSTRING
        case 'T': pushed(text(little(4, at), at)); return;             // BINSTRING
        // Globals.
        case 'c': case 'i': {                                           // GLOBAL, INST: "module\nname\n"
            const std::string module = line(at);
            m_globals.push_back(module + "." + line(at));
            pushed(std::nullopt);
            return;
        }
        case 0x93: {                                                    // STACK_GLOBAL
            if (!m_last[0] || !m_last[1]) {
                fail(at, "STACK_GLOBAL of names that are not string constants");
            }
            m_globals.push_back(*m_last[0] + "." + *m_last[1]);
            pushed(std::nullopt);
            return;
        }
        case 0x82: case 0x83: case 0x84:                                // EXT1, EXT2, EXT4
            fail(at, "a global named by an extension-registry code");
        default: break;
        }
        skipOther(op, at);
        pushed(std::nullopt);
    }

    // Every other opcode of protocols 0-5: its argument is skipped, its value is "not a name".
    void skipOther(unsigned char op, size_t at)
    {
        switch (op) {
        case 'K': case 0x88: case 0x89: little(op == 'K' ? 1 : 0, at); return; // BININT1, NEWTRUE/FALSE
        case 'M': little(2, at); return;                                       // BININT2
        case 'J': little(4, at); return;                                       // BININT
        case 'G': little(8, at); return;                                       // BINFLOAT
        case 0x8a: text(little(1, at), at); return;                            // LONG1
        case 0x8b: text(little(4, at), at); return;                            // LONG4
        case 'C': text(little(1, at), at); return;                             // SHORT_BINBYTES
        case 'B': text(little(4, at), at); return;                             // BINBYTES
        case 0x8e: case 0x96: text(little(8, at), at); return;                 // BINBYTES8, BYTEARRAY8
        case 'I': case 'L': case 'F': case 'S': case 'V': case 'P': line(at); return; // text forms, PERSID
        case '(': case '0': case '1': case '2': case 'N': case 'Q': case 'R': case 'a': case 'b': case 'd':
        case '}': case 'e': case 'l': case ']': case 'o': case 's': case 't': case ')': case 'u':
        case 0x81: case 0x85: case 0x86: case 0x87: case 0x8f: case 0x90: case 0x91: case 0x92:
        case 0x97: case 0x98:
            return; // no argument
        default: {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", op);
            fail(at, std::string("unknown opcode ") + hex);
        }
        }
    }

    const std::string& m_bytes;
    size_t m_pos = 0;
    std::vector<std::string> m_globals;
    std::optional<std::string> m_last[2];
    std::unordered_map<uint64_t, std::optional<std::string>> m_memo;
};

} // namespace

std::vector<std::string> pickleGlobals(const std::string& bytes)
{
    return GlobalScanner(bytes).run();
}

} // namespace lbd
