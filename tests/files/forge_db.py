# tests/files/forge_db.py -- forged databases for tests/t_files.sh, with a
# correct checksum (the checksum alone must not make a database trusted).
#   forge_db.py record DB OUT REC VALUE DIST SCORE   rewrites record REC (0-based)
#   forge_db.py name DB OUT HEXBYTES                 replaces the game name
#   forge_db.py flip DB OUT OFFSET                   flips a byte, checksum kept
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
elif cmd == 'flip':
    b[int(sys.argv[4])] ^= 0xff
open(out, 'wb').write(b)
