import { Callout } from '@blueprintjs/core';
import frame from '../../../schemas/text/frame.json';
import { ApplicationFile } from '../features/application-file/ApplicationFile.tsx';
import { PdfDownload } from '../features/documents/PdfDownload.tsx';

export function CompletionPage() {
  return (
    <section className="form-page completion-page" aria-labelledby="page-title">
      <h1 id="page-title" className="page-title">{frame.completion.title}</h1>
      <Callout intent="success" icon="tick-circle">{frame.completion.message}</Callout>
      <p className="completion-next">{frame.completion.next_steps}</p>
      <PdfDownload />
      <ApplicationFile idPrefix="completion-file" />
    </section>
  );
}
