/**
 * Worker thread of temperatureChartPng: renders one chart and exits, taking the chart
 * libraries' memory with it. Input and output cross as structured clones (the report is
 * JSON-safe by design; the PNG's buffer is transferred, not copied).
 */
import { parentPort, workerData } from "node:worker_threads";
import { renderTemperatureChart, type TemperatureReport } from "./temperatures.js";

const { report, vehicleId } = workerData as { report: TemperatureReport; vehicleId: number };
const png = await renderTemperatureChart(report, vehicleId);
parentPort?.postMessage(png, [png.buffer as ArrayBuffer]);
