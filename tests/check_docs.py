#!/usr/bin/env python3
"""tests/check_docs.py -- every example of a manual is run.

Extract ```game blocks and ```console blocks from a manual and test them.

A ```game block is saved under the file name of the first `$ gsolve NAME`
command of the console block(s) that follow it (before the next game block).
Game blocks with no console block are saved as anonN.game and must compile
(gsolve --dump-bytecode exits 0).  Console blocks: each `$ CMD` line is run
with sh in the work dir (gsolve on PATH), stderr merged; 'seconds:' lines are
dropped from the actual output; the remaining output must equal the doc text.
"""
import os, re, subprocess, sys, shutil
doc = sys.argv[1]
gsolve = os.path.abspath(sys.argv[2])
import tempfile
work = tempfile.mkdtemp(prefix='gsolve-docs.')
shutil.rmtree(work, ignore_errors=True); os.makedirs(work)
bindir = os.path.join(work, 'bin'); os.makedirs(bindir)
os.symlink(gsolve, os.path.join(bindir, 'gsolve'))
text = open(doc).read().split('\n')
blocks = []
i = 0
while i < len(text):
    m = re.match(r'^```(\w+)\s*$', text[i])
    if m:
        lang = m.group(1); j = i + 1
        while not text[j].startswith('```'): j += 1
        blocks.append((lang, i + 1, text[i+1:j]))
        i = j + 1
    else:
        i += 1
fails = 0; ngame = 0; ncmd = 0
pending = None  # (line, code)
anon = 0
def flush_anon():
    global pending, anon, fails
    if pending is None: return
    anon += 1
    name = 'anon%d.game' % anon
    open(os.path.join(work, name), 'w').write('\n'.join(pending[1]) + '\n')
    r = subprocess.run([gsolve, name, '--dump-bytecode'], cwd=work, capture_output=True, text=True)
    if r.returncode != 0:
        fails += 1
        print('FAIL: game block at line %d does not compile:\n%s' % (pending[0], r.stderr))
    pending = None
for lang, line, body in blocks:
    if lang == 'game':
        flush_anon()
        pending = (line, body); ngame += 1
    elif lang == 'console':
        # split into commands
        cmds = []
        for l in body:
            if l.startswith('$ '): cmds.append([l[2:], []])
            elif cmds: cmds[-1][1].append(l)
        if pending is not None:
            m = re.search(r'gsolve\s+(\S+\.game)', cmds[0][0])
            name = m.group(1)
            open(os.path.join(work, name), 'w').write('\n'.join(pending[1]) + '\n')
            pending = None
        for cmd, expect in cmds:
            ncmd += 1
            env = dict(os.environ, PATH=bindir + ':' + os.environ['PATH'])
            r = subprocess.run(['sh', '-c', '{ ' + cmd + '\n} 2>&1'], cwd=work, capture_output=True, text=True, env=env)
            got = [l for l in r.stdout.rstrip('\n').split('\n') if not l.startswith('seconds:')]
            exp = expect[:]
            while exp and exp[-1] == '': exp.pop()
            if got == [''] : got = []
            if got != exp:
                fails += 1
                print('FAIL: command at line %d: %s\n--- expected\n%s\n--- got\n%s\n' % (line, cmd, '\n'.join(exp), '\n'.join(got)))
flush_anon()
print('%d game blocks, %d commands, %d failures' % (ngame, ncmd, fails))
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if fails else 0)
