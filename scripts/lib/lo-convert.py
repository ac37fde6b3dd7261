#!/usr/bin/python3
"""Warm LibreOffice for scripts/fidelity.ts (measurement only: docloom never uses LibreOffice).

Starts one headless soffice (its environment, FONTCONFIG_FILE included, is this process's), connects to it
through python3-uno and converts .docx files to PDF one at a time. Each stdin line is a JSON object
{"in": "/abs/file.docx", "out": "/abs/file.pdf"}; each answer on stdout is one JSON line:

  {"ok": true, "ms": load + export + close, "load_ms": ..., "export_ms": ..., "close_ms": ...}
  {"ok": false, "error": "...", "crashed": true|false}

"crashed" means soffice died (or stopped answering) while converting the file: it is started again before the
next file, and the caller converts that file cold. Usage: lo-convert.py PROFILE_DIR
"""
import json
import os
import subprocess
import sys
import time
import uuid

import uno
from com.sun.star.beans import PropertyValue

PROFILE = os.path.abspath(sys.argv[1])
PIPE = "docloom_fidelity_" + uuid.uuid4().hex[:8]


def props(**kw):
    out = []
    for k, v in kw.items():
        p = PropertyValue()
        p.Name = k
        p.Value = v
        out.append(p)
    return tuple(out)


class Office:
    def __init__(self):
        self.proc = None
        self.desktop = None

    def start(self):
        # A fresh profile makes the first start exit with 81 after setting itself up: start again.
        for _attempt in range(4):
            self.proc = subprocess.Popen(
                [
                    "soffice",
                    "--headless",
                    "--invisible",
                    "--nologo",
                    "--norestore",
                    "--nodefault",
                    "--nolockcheck",
                    "-env:UserInstallation=" + uno.systemPathToFileUrl(PROFILE),
                    "--accept=pipe,name=%s;urp;StarOffice.ComponentContext" % PIPE,
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            local = uno.getComponentContext()
            resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
            deadline = time.time() + 90
            while time.time() < deadline:
                if self.proc.poll() is not None:
                    break
                try:
                    ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % PIPE)
                    smgr = ctx.ServiceManager
                    self.desktop = smgr.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
                    return
                except Exception:
                    time.sleep(0.2)
            self.stop()
        raise RuntimeError("soffice did not start")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.desktop.terminate()
            except Exception:
                pass
            try:
                self.proc.wait(timeout=10)
            except Exception:
                self.proc.kill()
        self.proc = None
        self.desktop = None

    def convert(self, src, dst):
        t0 = time.perf_counter()
        doc = self.desktop.loadComponentFromURL(
            uno.systemPathToFileUrl(src), "_blank", 0, props(Hidden=True, ReadOnly=True, UpdateDocMode=0)
        )
        if doc is None:
            return {"ok": False, "error": "LibreOffice could not load the file", "crashed": False}
        t1 = time.perf_counter()
        try:
            doc.storeToURL(uno.systemPathToFileUrl(dst), props(FilterName="writer_pdf_Export"))
            t2 = time.perf_counter()
        finally:
            try:
                doc.close(True)
            except Exception:
                doc.dispose()
        t3 = time.perf_counter()
        return {
            "ok": True,
            "ms": (t3 - t0) * 1000,
            "load_ms": (t1 - t0) * 1000,
            "export_ms": (t2 - t1) * 1000,
            "close_ms": (t3 - t2) * 1000,
        }


def main():
    office = Office()
    office.start()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        if not office.alive():
            office.start()
        try:
            answer = office.convert(req["in"], req["out"])
        except Exception as err:  # a UNO error, or the bridge gone with a dead soffice
            crashed = not office.alive()
            if not crashed:
                # The bridge may be broken while the process lingers: check it still answers.
                try:
                    office.desktop.getComponents()
                except Exception:
                    crashed = True
            answer = {"ok": False, "error": "%s: %s" % (type(err).__name__, err), "crashed": crashed}
            if crashed:
                office.stop()
        print(json.dumps(answer), flush=True)
    office.stop()


if __name__ == "__main__":
    main()
