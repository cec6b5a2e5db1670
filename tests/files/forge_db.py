# tests/files/forge_db.py -- forged databases for tests/t_files.sh, with a
# correct checksum (the checksum alone must not make a database trusted).
#   forge_db.py record DB OUT REC VALUE DIST SCORE   rewrites record REC (0-based)
#   forge_db.py name DB OUT HEXBYTES                 replaces the game name
#   forge_db.py flip DB OUT OFFSET                   flips a byte, checksum kept
#   forge_db.py mutate DB OUT REC KIND               record REC made wrong but
#       self-consistent (KIND: longer, its distance + 2; swap, a win made a
#       loss or a loss a win, score negated, at its distance)
#   forge_db.py header DB OUT FIELD VALUE             a u64 header field
#       (positions or stored) set to VALUE
#   forge_db.py addkey DB OUT HEXKEY VALUE DIST SCORE  one more record, its key
#       given (put last: a key above every stored one), stored and positions + 1
#   forge_db.py show DB - REC                        prints record REC: value
#       (1 win, 2 loss, 3 draw), distance, score
#   forge_db.py bookscore BOOK OUT REC SCORE           a Connect Four book's
#       record REC (0-based, in key order) given SCORE
#   forge_db.py bookdrop BOOK OUT REC                  that record left out
import struct, sys


def fnv(b):
    h = 0xcbf29ce484222325
    for c in b:
        h ^= c
        h = (h * 0x100000001b3) & 0xffffffffffffffff
    return h


def strings_end(b):
    at = 48
    for _ in range(3):
        at += 4 + struct.unpack_from('<I', b, at)[0]
    return at


def resum(b):
    struct.pack_into('<Q', b, len(b) - 8, fnv(b[:-8]))


cmd, src, out = sys.argv[1], sys.argv[2], sys.argv[3]
b = bytearray(open(src, 'rb').read())
if cmd == 'record':
    rec, val, dist, score = (int(x) for x in sys.argv[4:8])
    K = struct.unpack_from('<I', b, 12)[0]
    r = strings_end(b) + rec * (K + 10) + K
    b[r] = val
    struct.pack_into('<Ii', b, r + 2, dist & 0xffffffff, score)
    resum(b)
elif cmd == 'name':
    name = bytes.fromhex(sys.argv[4])
    n = struct.unpack_from('<I', b, 48)[0]
    b[48:52 + n] = struct.pack('<I', len(name)) + name
    resum(b)
elif cmd == 'mutate':
    rec, kind = int(sys.argv[4]), sys.argv[5]
    K = struct.unpack_from('<I', b, 12)[0]
    r = strings_end(b) + rec * (K + 10) + K
    dist, score = struct.unpack_from('<Ii', b, r + 2)
    if kind == 'longer':
        dist += 2
    elif b[r] in (1, 2):
        b[r] = 3 - b[r]
        score = -score
    struct.pack_into('<Ii', b, r + 2, dist, score)
    resum(b)
elif cmd == 'header':
    struct.pack_into('<Q', b, {'positions': 32, 'stored': 40}[sys.argv[4]], int(sys.argv[5]))
    resum(b)
elif cmd == 'addkey':
    key, (val, dist, score) = bytes.fromhex(sys.argv[4]), (int(x) for x in sys.argv[5:8])
    K = struct.unpack_from('<I', b, 12)[0]
    n = struct.unpack_from('<Q', b, 40)[0]
    at = strings_end(b) + n * (K + 10)
    assert len(key) == K
    b[at:at] = key + bytes([val, 0]) + struct.pack('<Ii', dist & 0xffffffff, score)
    for off in (32, 40):
        struct.pack_into('<Q', b, off, struct.unpack_from('<Q', b, off)[0] + 1)
    resum(b)
elif cmd == 'show':
    rec = int(sys.argv[4])
    K = struct.unpack_from('<I', b, 12)[0]
    r = strings_end(b) + rec * (K + 10) + K
    print(b[r], *struct.unpack_from('<Ii', b, r + 2))
    sys.exit(0)
elif cmd in ('bookscore', 'bookdrop'):
    # "GSC4BOOK", u32 version, width, height, from, to; u64 n; n records
    # (u64 key, i8 score); u64 FNV-1a of everything before it.
    rec, head = int(sys.argv[4]), 36
    at = head + rec * 9
    if cmd == 'bookscore':
        struct.pack_into('<b', b, at + 8, int(sys.argv[5]))
    else:
        del b[at:at + 9]
        struct.pack_into('<Q', b, 28, struct.unpack_from('<Q', b, 28)[0] - 1)
    resum(b)
elif cmd == 'flip':
    b[int(sys.argv[4])] ^= 0xff
open(out, 'wb').write(b)
