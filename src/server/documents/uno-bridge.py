# A warm LibreOffice: connects to a running soffice (UNO socket) and converts each file
# named on stdin (one JSON object per line) to PDF, answering on stdout. Started once
# and reused by src/server/documents/libreoffice.ts; about 10x faster than a new soffice
# per file. Macros never run, links are not updated.
import json
import sys
import time

import uno
from com.sun.star.beans import PropertyValue


def prop(name, value):
    item = PropertyValue()
    item.Name = name
    item.Value = value
    return item


def connect(port):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    for _ in range(300):
        try:
            return resolver.resolve("uno:socket,host=127.0.0.1,port=%d;urp;StarOffice.ComponentContext" % port)
        except Exception:
            time.sleep(0.1)
    raise SystemExit(2)


def main():
    context = connect(int(sys.argv[1]))
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
            print(json.dumps({"id": request["id"], "error": str(error)}), flush=True)


main()
