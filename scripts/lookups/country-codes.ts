import countries from '../../schemas/options/countries.json';

/**
 * ISO 3166-1 alpha-2 to alpha-3 for the countries of the app's option list
 * (schemas/options/countries.json uses alpha-3; look-up lists usually say "US").
 * Each entry is the two letters followed by the three, from Debian's iso-codes, plus
 * Kosovo's user-assigned XK/XKK.
 */
const ALPHA_2_TO_3 = new Map(
  [
    'ADAND AEARE AFAFG AGATG AIAIA ALALB AMARM AOAGO AQATA ARARG ATAUT AUAUS AWABW AXALA AZAZE BABIH',
    'BBBRB BDBGD BEBEL BFBFA BGBGR BHBHR BIBDI BJBEN BLBLM BMBMU BNBRN BOBOL BQBES BRBRA BSBHS BTBTN',
    'BVBVT BWBWA BYBLR BZBLZ CACAN CCCCK CDCOD CFCAF CGCOG CHCHE CICIV CKCOK CLCHL CMCMR CNCHN COCOL',
    'CRCRI CUCUB CVCPV CWCUW CXCXR CYCYP CZCZE DEDEU DJDJI DKDNK DMDMA DODOM DZDZA ECECU EEEST EGEGY',
    'EHESH ERERI ESESP ETETH FIFIN FJFJI FKFLK FMFSM FOFRO FRFRA GAGAB GBGBR GDGRD GEGEO GFGUF GGGGY',
    'GHGHA GIGIB GLGRL GMGMB GNGIN GPGLP GQGNQ GRGRC GSSGS GTGTM GWGNB GYGUY HKHKG HMHMD HNHND HRHRV',
    'HTHTI HUHUN IDIDN IEIRL ILISR IMIMN ININD IOIOT IQIRQ IRIRN ISISL ITITA JEJEY JMJAM JOJOR JPJPN',
    'KEKEN KGKGZ KHKHM KIKIR KMCOM KNKNA KPPRK KRKOR KWKWT KYCYM KZKAZ LALAO LBLBN LCLCA LILIE LKLKA',
    'LRLBR LSLSO LTLTU LULUX LVLVA LYLBY MAMAR MCMCO MDMDA MEMNE MFMAF MGMDG MHMHL MKMKD MLMLI MMMMR',
    'MNMNG MOMAC MQMTQ MRMRT MSMSR MTMLT MUMUS MVMDV MWMWI MXMEX MYMYS MZMOZ NANAM NCNCL NENER NFNFK',
    'NGNGA NINIC NLNLD NONOR NPNPL NRNRU NUNIU NZNZL OMOMN PAPAN PEPER PFPYF PGPNG PHPHL PKPAK PLPOL',
    'PMSPM PNPCN PSPSE PTPRT PWPLW PYPRY QAQAT REREU ROROU RSSRB RURUS RWRWA SASAU SBSLB SCSYC SDSDN',
    'SESWE SGSGP SHSHN SISVN SJSJM SKSVK SLSLE SMSMR SNSEN SOSOM SRSUR SSSSD STSTP SVSLV SXSXM SYSYR',
    'SZSWZ TCTCA TDTCD TFATF TGTGO THTHA TJTJK TKTKL TLTLS TMTKM TNTUN TOTON TRTUR TTTTO TVTUV TWTWN',
    'TZTZA UAUKR UGUGA USUSA UYURY UZUZB VAVAT VCVCT VEVEN VGVGB VNVNM VUVUT WFWLF WSWSM XKXKK YEYEM',
    'YTMYT ZAZAF ZMZMB ZWZWE',
  ].join(' ').split(' ').map((pair) => [pair.slice(0, 2), pair.slice(2)] as const),
);

const KNOWN_ALPHA_3 = new Set(countries.oneOf.map((option) => option.const));

/** The alpha-3 code of a country given as alpha-2 or alpha-3 (any case); undefined when unknown. */
export function toAlpha3(code: string): string | undefined {
  const upper = code.trim().toUpperCase();
  const alpha3 = upper.length === 2 ? ALPHA_2_TO_3.get(upper) : upper;
  return alpha3 && KNOWN_ALPHA_3.has(alpha3) ? alpha3 : undefined;
}

const ALPHA_3_TO_2 = new Map([...ALPHA_2_TO_3].map(([alpha2, alpha3]) => [alpha3, alpha2]));

/** The alpha-2 code of an alpha-3 one (what Intl.DisplayNames takes); undefined when unknown. */
export function toAlpha2(alpha3: string): string | undefined {
  return ALPHA_3_TO_2.get(alpha3.trim().toUpperCase());
}
