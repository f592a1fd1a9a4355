/**
 * The settings LibreOffice's profile starts with (its user/registrymodifications.xcu),
 * written into each new profile before soffice first runs. A second line behind the
 * stripping of Word files (docx-links.ts), for whatever it misses:
 *
 * - Embedded Microsoft objects (Word, Excel, PowerPoint, Visio, MathType) are not loaded as
 *   documents of LibreOffice's own: an embedded Word document would otherwise be opened, its
 *   own linked pictures fetched. The object shows the picture Word stored with it.
 * - Links in Writer and Calc documents are never updated on loading.
 * - Links to places outside trusted locations are blocked; macros never run.
 */
const SETTINGS: [path: string, name: string, value: string][] = [
  ['/org.openoffice.Office.Common/Filter/Microsoft/Import', 'WinWordToWriter', 'false'],
  ['/org.openoffice.Office.Common/Filter/Microsoft/Import', 'ExcelToCalc', 'false'],
  ['/org.openoffice.Office.Common/Filter/Microsoft/Import', 'PowerPointToImpress', 'false'],
  ['/org.openoffice.Office.Common/Filter/Microsoft/Import', 'VisioToDraw', 'false'],
  ['/org.openoffice.Office.Common/Filter/Microsoft/Import', 'MathTypeToMath', 'false'],
  ['/org.openoffice.Office.Writer/Content/Update', 'Link', '2'], // 2: never
  ['/org.openoffice.Office.Calc/Content/Update', 'Link', '2'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', 'true'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution', 'true'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', '3'], // 3: very high
];

export const PROFILE_SETTINGS = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
  ...SETTINGS.map(([path, name, value]) => `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`),
  '</oor:items>',
  '',
].join('\n');
