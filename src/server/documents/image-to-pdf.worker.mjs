// One image on a US Letter page, scaled to fit inside the margins. Runs in a worker
// thread: decoding and compressing a PNG again takes a few hundred milliseconds that must
// not block the server's event loop. (Plain JavaScript: a worker does not get the
// TypeScript loader.) JPEG bytes are copied as they are.
import { parentPort } from 'node:worker_threads';
import { PDFDocument } from 'pdf-lib';

const LETTER = { width: 612, height: 792 };
const MARGIN = 36;

/** @param {Uint8Array} bytes @param {'png' | 'jpeg'} kind */
async function imageToPdf(bytes, kind) {
  const pdf = await PDFDocument.create();
  const image = kind === 'png' ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
  const landscape = image.width > image.height;
  const page = pdf.addPage(landscape ? [LETTER.height, LETTER.width] : [LETTER.width, LETTER.height]);
  const { width: pageWidth, height: pageHeight } = page.getSize();
  const scale = Math.min(1, (pageWidth - 2 * MARGIN) / image.width, (pageHeight - 2 * MARGIN) / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, { x: (pageWidth - width) / 2, y: (pageHeight - height) / 2, width, height });
  return pdf.save({ useObjectStreams: false });
}

parentPort?.on('message', async ({ id, bytes, kind }) => {
  try {
    const pdf = await imageToPdf(bytes, kind);
    parentPort?.postMessage({ id, pdf }, [pdf.buffer]);
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
