/**
 * World manufacturer identifiers (the first three characters of a VIN, ISO 3780) of common
 * makes seen in North American shops, written for this project from the U.S. National
 * Highway Traffic Safety Administration's public manufacturer data (vPIC, "Manufacturer
 * Information" / 49 CFR 565 submissions, https://vpic.nhtsa.dot.gov). That data is a work
 * of the U.S. federal government and in the public domain (17 U.S.C. §105); no licence
 * terms apply. The table is deliberately a selection (a few hundred codes), not the
 * whole register: an unknown code decodes to no make, and the VIN is still accepted.
 *
 * Format: one make per line, its codes after the colon, separated by spaces.
 */
const TABLE = `
Acura: JH4 19U 19V 2HN 5FR 5J8
Alfa Romeo: ZAR ZAS
Aston Martin: SCF
Audi: WAU WA1 WUA TRU WAC
Bentley: SCB SJA
BMW: WBA WBS WBX WBY 4US 5UX 5UM 5YM LBV WB1 WB3
Buick: 1G4 2G4 4G4 5GA KL4 LRB 1GG 3G5 W04
BYD: LGX
Cadillac: 1G6 1GY 3GY 1GE
Chevrolet: 1G1 1GC 1GN 1GB 1GA 2G1 2GN 2GC 3G1 3GN 3GC KL1 KL7 KL8 9BG 3GB LSG
Chrysler: 1C3 1C4 1C8 2C3 2C4 2A4 2A8 3C3 3C4 2C8
Citroën: VF7 VR7
Dacia: UU1
Dodge: 1B3 1B4 1B7 1D3 1D4 1D7 1D8 2B3 2B4 2B7 2D3 2D4 2D7 3D3 3D4 3D7 1B6 2B6
Ducati: ZDM
Ferrari: ZFF
Fiat: ZFA ZFB 8AP 9BD
Ford: 1FA 1FB 1FC 1FD 1FM 1FT 1F1 2FA 2FB 2FC 2FD 2FM 2FT 3FA 3FB 3FC 3FD 3FE 3FM 3FT 6FP MAJ NM0 WF0 LVS 1ZV 1FW VS6
Freightliner: 1FU 1FV 4UZ 3AK
Genesis: KMT 5NT
GMC: 1GT 1GK 1GD 2GT 2GK 3GT 3GK 1GJ 5GT
Harley-Davidson: 1HD 5HD
Holden: 6G1 6G2 6H8
Honda: 1HG 1HF 2HG 2HK 2HJ 3HG 3CZ 5FN 5J6 JHM JHL JHG JH2 SHH SHS 93H LHG MRH 7FA 4S6 NLA
Hummer: 5GR
Hyundai: KMH KM8 5NP 5NM TMA MAL NLH KMF KMJ 3KM
Infiniti: JNK JNR JNX 5N3
International: 1HT 1HS 3HS 3HA
Isuzu: JAA JAB JAC JAL 4S1 4S2 MPA
Jaguar: SAJ SAD
Jeep: 1J4 1J8 ZAC 1JC 1JT
Kawasaki: JKA JKB 1KA
Kenworth: 1XK 2XK 3WK
Kia: KNA KND KNC KNE 5XX 5XY 3KP U5Y
Lada: XTA
Lamborghini: ZHW ZA9
Land Rover: SAL
Lexus: JTH JTJ JT6 JT8 2T2 58A
Lincoln: 1LN 2LM 3LN 5LM 5LT 1L1 2L1
Lotus: SCC
Mack: 1M1 1M2
Maserati: ZAM
Mazda: JM1 JM2 JM3 JM7 JMZ 1YV 4F2 4F4 3MZ 3MV 3MD 7MM
McLaren: SBM
Mercedes-Benz: WDB WDC WDD WDF WD3 WD4 WD2 W1K W1N W1V W1X W1Y 4JG 55S WMX VSA
Mercury: 1ME 2ME 3ME 4M2 5M2
MINI: WMW WMZ
Mitsubishi: JA3 JA4 JA7 JMB JMY 4A3 4A4 6MM ML3 MMB MMT
Nissan: JN1 JN6 JN8 1N4 1N6 3N1 3N6 3N8 5N1 SJN VSK MNT 3NG 5BZ
Oldsmobile: 1G3 2G3 3G3 1GH
Opel: W0L W0V VXK
Peterbilt: 1XP 2XP 1NP
Peugeot: VF3 VR3 VF4 VGA
Plymouth: 1P3 1P4 2P3 2P4
Polestar: LPS YSM
Pontiac: 1G2 2G2 3G2 5Y2 6G2
Porsche: WP0 WP1
Ram: 1C6 2C6 3C6 3C7 3D6 1D6
Renault: VF1 VF6 VF2 KNM 93Y
Rivian: 7FC 7PD
Rolls-Royce: SCA
Saab: YS3 YK1
Saturn: 1G8 5GZ 4N1
Scion: JTK JTL
SEAT: VSS
Škoda: TMB TMP
smart: WME
Subaru: JF1 JF2 JF3 JF4 4S3 4S4 4S6
Suzuki: JS1 JS2 JS3 JS4 2S3 TSM MA3 KL5
Tesla: 5YJ 7SA 7G2 LRW XP7
Toyota: JT2 JT3 JT4 JT5 JTD JTE JTF JTM JTN JTP JTR JTT 2T1 2T3 4T1 4T3 4T4 5TB 5TD 5TE 5TF 5TM 5YF 1NX 3TM 3TY 3MY 6T1 7MU MR0 MR1 MR2 NMT SB1 VNK 8AJ 9BR AHT
Triumph: SMT SMW
Volkswagen: WVW WV1 WV2 WV3 WVG 1VW 3VW 3VV 9BW LFV LSV XW8 AAV 1V1 1V2 VWV
Volvo: YV1 YV2 YV3 YV4 YB1 4V1 4V4 4V5 7JR 7JD LVY LYV
Yamaha: JYA JYE 5Y4 3Y4
`;

/** WMI → make, built once from TABLE (a code listed under two makes keeps its first). */
export const WMI_MAKES: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const line of TABLE.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const make = line.slice(0, colon).trim();
    for (const code of line
      .slice(colon + 1)
      .trim()
      .split(/\s+/))
      if (code && !map.has(code)) map.set(code, make);
  }
  return map;
})();

/** The make of a VIN's manufacturer code (its first three characters), or null when the table does not list it. */
export function manufacturerOf(vin: string): string | null {
  return WMI_MAKES.get(vin.slice(0, 3).toUpperCase()) ?? null;
}
