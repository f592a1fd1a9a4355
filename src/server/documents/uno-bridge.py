# A warm LibreOffice: connects to a running soffice (a UNO pipe: a unix socket only this
# user can open, never a TCP port) and converts each file named on stdin (one JSON object
# per line) to PDF, answering on stdout. Started once and reused by
# src/server/documents/libreoffice.ts; about 10x faster than a new soffice per file.
# Macros never run, links are not updated.
#
# Arguments: the pipe's name, how many seconds to keep trying to connect (default 30), the
# private folder to remove if the server that started us dies, and the server's pid
# (optional: named, because the server may be gone before this bridge could ask for its
# parent). The server starts soffice once the watchdog watches ({"watching": true}).
import hashlib
import json
import os
import shutil
import signal
import sys
import time
import urllib.parse


def end_soffice(pipe):
    # every process started for this pipe (the launcher and soffice.bin name it in --accept):
    # found by name, as the server starts soffice after this bridge and cannot tell us its group
    # (and what else their process group holds: the server starts soffice in a group of its own)
    marker = ("name=%s;" % pipe).encode()
    groups = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % name, "rb") as command:
                if marker in command.read():
                    groups.add(os.getpgid(int(name)))
                    os.kill(int(name), signal.SIGKILL)
        except OSError:
            pass  # ended meanwhile, or a wrapper of the server's own user
    for group in groups - {os.getpgrp()}:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass


def parent_of(pid):
    try:
        with open("/proc/%d/stat" % pid) as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def remove_leftovers(pipe, box):
    # what the server would have removed: the folder, and the sockets soffice leaves in /tmp
    # (its single-instance pipe is named after the MD5 of the profile's address)
    if not os.path.isabs(box):
        return
    profile = "file://" + urllib.parse.quote(os.path.join(box, "profile"))
    digest = "".join("%x" % byte for byte in hashlib.md5(profile.encode("utf-16-le")).digest())
    for name in ("OSL_PIPE_%d_%s" % (os.getuid(), pipe), "OSL_PIPE_%d_SingleOfficeIPC_%s" % (os.getuid(), digest)):
        try:
            os.unlink(os.path.join("/tmp", name))
        except OSError:
            pass
    shutil.rmtree(box, ignore_errors=True)


def descends_from(pid, ancestor):
    # the bridge may run inside a sandbox (bubblewrap) that the server started: its parent is
    # then the sandbox, whose parent is the server, which dies with it (--die-with-parent)
    for _ in range(64):
        pid = parent_of(pid)
        if pid is None or pid <= 1:
            return False
        if pid == ancestor:
            return True
    return False


def watch(pipe, box, server):
    # A SIGKILLed server cannot stop soffice, and this bridge may be stuck inside a UNO call:
    # a small separate process ends soffice (and the bridge) once the server or the bridge is gone.
    bridge = os.getpid()
    sys.stdout.flush()
    if os.fork() != 0:
        print(json.dumps({"watching": True}), flush=True)
        return
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    while descends_from(bridge, server):
        time.sleep(0.5)
    end_soffice(pipe)
    try:
        os.kill(bridge, signal.SIGKILL)
    except OSError:
        pass
    time.sleep(0.5)  # a launcher may have started soffice.bin meanwhile; then nothing writes into the folder any more
    end_soffice(pipe)
    remove_leftovers(pipe, box)
    os._exit(0)


watch(sys.argv[1], sys.argv[3] if len(sys.argv) > 3 else "", int(sys.argv[4]) if len(sys.argv) > 4 else os.getppid())

import uno  # noqa: E402 (after the fork: the watchdog needs none of it)
from com.sun.star.beans import PropertyValue  # noqa: E402


def prop(name, value):
    item = PropertyValue()
    item.Name = name
    item.Value = value
    return item


def connect(pipe, seconds):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + seconds
    while True:
        try:
            return resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
        except Exception:
            if time.monotonic() > deadline:
                raise SystemExit(2)  # a soffice that never opened its pipe
            time.sleep(0.1)


def alive(desktop):
    try:
        desktop.getFrames()
        return True
    except Exception:
        return False


def main():
    pipe = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 30
    context = connect(pipe, seconds)
    desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
    print(json.dumps({"ready": True}), flush=True)
    load = (prop("Hidden", True), prop("ReadOnly", True), prop("MacroExecutionMode", 0), prop("UpdateDocMode", 0))
    store = (prop("FilterName", "writer_pdf_Export"),)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            document = desktop.loadComponentFromURL(uno.systemPathToFileUrl(request["input"]), "_blank", 0, load)
            if document is None:
                raise RuntimeError("LibreOffice could not open the file")
            try:
                document.storeToURL(uno.systemPathToFileUrl(request["output"]), store)
            finally:
                document.close(True)
            print(json.dumps({"id": request["id"], "ok": True}), flush=True)
        except Exception as error:  # the caller decides what a failure means
            stopped = not alive(desktop)  # soffice died (a crash on this file): the caller starts a new one
            print(json.dumps({"id": request["id"], "error": str(error), "stopped": stopped}), flush=True)
            if stopped:
                sys.exit(3)
    end_soffice(pipe)  # stdin closed: the server is gone


main()
