import { constants, inflateRawSync } from 'node:zlib';
import {
  PDFArray, PDFDict, PDFDocument, PDFName, PDFObjectStreamParser, PDFRawStream, PDFXRefStreamParser, ParseSpeeds, decodePDFRawStream, type PDFObject,
} from '@cantoo/pdf-lib';

/**
 * A PDF's compressed streams, unpacked against a budget. A Flate stream inflates up to
 * about 1,000 times its size, and a chain of filters ([/FlateDecode /FlateDecode], or a
 * Flate stream whose content is another) multiplies that: 2 KB of PDF can hold a gigabyte.
 * pdf-lib inflates object streams while it parses, in JavaScript and without any limit;
 * here every stream's every filter is counted against one total per file, and the file is
 * refused once the total passes it.
 */

/** Inflated bytes a PDF may hold in all (every stream, every filter of each). */
export const MAX_INFLATED_BYTES = 100 * 1024 * 1024;
/** Real files chain at most two or three filters (ASCII85 over Flate); more only multiplies a bomb. */
export const MAX_FILTERS = 4;

export class InflateBudgetError extends Error {}

/** The inflated bytes one file may still produce. */
export class InflateBudget {
  private spent = 0;
  /** set once: pdf-lib's parser swallows errors in an object stream and goes on, so the loader asks afterwards */
  exceeded: InflateBudgetError | undefined;

  constructor(readonly limit: number) {}

  get remaining(): number {
    return Math.max(0, this.limit - this.spent);
  }

  spend(bytes: number): void {
    this.spent += bytes;
    if (this.spent > this.limit) this.refuse(`streams inflate to more than ${this.limit} bytes`);
  }

  refuse(reason: string): never {
    this.exceeded ??= new InflateBudgetError(reason);
    throw this.exceeded;
  }
}

const FLATE = PDFName.of('FlateDecode');
/** Filters PDF readers decode only to draw an image (their size is bounded by the image's); they are not unpacked here. */
const IMAGE_FILTERS = new Set(['DCTDecode', 'JPXDecode', 'CCITTFaxDecode', 'JBIG2Decode', 'Crypt']);

interface Filter {
  name: PDFName;
  parms: PDFObject | undefined;
}

function filtersOf(dict: PDFDict, budget: InflateBudget): Filter[] {
  const filter = dict.lookup(PDFName.of('Filter'));
  const parms = dict.lookup(PDFName.of('DecodeParms'));
  if (filter === undefined) return [];
  if (filter instanceof PDFName) return [{ name: filter, parms }];
  if (!(filter instanceof PDFArray)) throw new Error('a stream filter that is neither a name nor a list');
  if (filter.size() > MAX_FILTERS) budget.refuse(`a chain of ${filter.size()} filters`);
  return filter.asArray().map((_, index) => ({
    name: filter.lookup(index, PDFName),
    parms: parms instanceof PDFArray ? parms.lookup(index) : undefined,
  }));
}

/** Native zlib, stopped one byte past the limit. The checksum at the end is not checked, as pdf-lib and PDF readers do not. */
function inflate(data: Uint8Array, limit: number, budget: InflateBudget): Uint8Array {
  const [method = 0, flags = 0] = data;
  if ((method & 0x0f) !== 8 || ((method << 8) | flags) % 31 !== 0 || flags & 0x20) throw new Error('invalid header in flate stream');
  try {
    return inflateRawSync(data.subarray(2), { maxOutputLength: limit + 1, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') budget.refuse(`a stream inflates to more than ${limit} bytes`);
    throw error;
  }
}

/** The rarer filters (LZW, ASCII85, ASCIIHex, RunLength) through pdf-lib's own decoders, block by block up to the limit. */
function decodeWithPdfLib(source: PDFRawStream, data: Uint8Array, filter: Filter, limit: number, budget: InflateBudget): Uint8Array {
  const dict = source.dict.context.obj({}) as PDFDict;
  dict.set(PDFName.of('Filter'), filter.name);
  if (filter.parms instanceof PDFDict) dict.set(PDFName.of('DecodeParms'), filter.parms);
  const decoder = decodePDFRawStream(PDFRawStream.of(dict, data)) as unknown as { eof: boolean; bufferLength: number; buffer: Uint8Array; readBlock(): void };
  while (!decoder.eof) {
    decoder.readBlock();
    if (decoder.bufferLength > limit) budget.refuse(`a stream decodes to more than ${limit} bytes`);
  }
  return decoder.buffer.subarray(0, decoder.bufferLength);
}

/**
 * A stream's bytes with its filters undone, each filter's output counted against the
 * budget. An image codec ends the chain (its bytes are counted as they are); when
 * `strict`, it is an error, as it is for pdf-lib's parser.
 */
export function decodeStream(stream: PDFRawStream, budget: InflateBudget, strict: boolean): Uint8Array {
  let data = stream.contents;
  for (const filter of filtersOf(stream.dict, budget)) {
    if (IMAGE_FILTERS.has(filter.name.decodeText())) {
      if (strict) throw new Error(`unsupported filter ${filter.name.decodeText()}`);
      break;
    }
    data = filter.name === FLATE ? inflate(data, budget.remaining, budget) : decodeWithPdfLib(stream, data, filter, budget.remaining, budget);
    budget.spend(data.length);
  }
  return data;
}

// pdf-lib unpacks object and cross-reference streams while it parses, each through its
// parser's `forStream`: during a load, the parser is handed the stream already unpacked
// against the load's budget (the package exports the parsers, not the byte stream beneath).
function budgeted<Rest extends unknown[], Parser>(forStream: (stream: PDFRawStream, ...rest: Rest) => Parser) {
  return (stream: PDFRawStream, ...rest: Rest): Parser => forStream(loading ? unpacked(stream, loading) : stream, ...rest);
}
PDFObjectStreamParser.forStream = budgeted(PDFObjectStreamParser.forStream);
PDFXRefStreamParser.forStream = budgeted(PDFXRefStreamParser.forStream);
let loading: InflateBudget | undefined;

/** The same stream with its filters undone within the budget, so the parser reads it as it stands. */
function unpacked(stream: PDFRawStream, budget: InflateBudget): PDFRawStream {
  const dict = stream.dict.clone();
  dict.delete(PDFName.of('Filter'));
  dict.delete(PDFName.of('DecodeParms'));
  return PDFRawStream.of(dict, decodeStream(stream, budget, true));
}

let previousLoad: Promise<unknown> = Promise.resolve();

/**
 * A PDF loaded by pdf-lib with every stream counted against one budget: the object and
 * cross-reference streams as the parser unpacks them, then every other stream (page
 * contents, images, fonts), which a reader would unpack to show the file. Throws
 * InflateBudgetError past the budget. Loads run one at a time (the budget is the parser's
 * while it runs). `parsedStreamsOnly`: for a PDF made here from streams counted already
 * (an image's checked data, a cleaned PDF's pages), only what the parser unpacks counts.
 */
export function loadPdfWithinBudget(bytes: Uint8Array, maxInflatedBytes = MAX_INFLATED_BYTES, options: { parsedStreamsOnly?: boolean } = {}): Promise<PDFDocument> {
  const load = previousLoad.then(async () => {
    const budget = new InflateBudget(maxInflatedBytes);
    let pdf: PDFDocument;
    loading = budget;
    try {
      // no pauses between objects: the worker process has nothing else to do meanwhile
      pdf = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    } catch (error) {
      throw budget.exceeded ?? error;
    } finally {
      loading = undefined;
    }
    if (budget.exceeded) throw budget.exceeded;
    if (options.parsedStreamsOnly) return pdf;
    for (const [, object] of pdf.context.enumerateIndirectObjects()) {
      if (!(object instanceof PDFRawStream)) continue;
      try {
        decodeStream(object, budget, false);
      } catch (error) {
        if (error instanceof InflateBudgetError) throw error;
        // a damaged stream: a reader shows what it can of it, as before; it unpacks to nothing here
      }
    }
    return pdf;
  });
  previousLoad = load.catch(() => {});
  return load;
}
