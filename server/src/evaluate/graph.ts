/**
 * Strongly connected components without recursion, so that dependency chains of any
 * length (thousands of resources or conditions) cannot overflow the stack.
 */

/**
 * Tarjan's algorithm over nodes `0..edges.length-1`. Components come out in reverse
 * topological order: every component is emitted after the components it points to,
 * so evaluating them in output order sees each dependency before its dependents.
 */
export function stronglyConnectedComponents(edges: readonly (readonly number[])[]): number[][] {
  const n = edges.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const components: number[][] = [];
  // Each frame is a node and the position of the next edge to follow from it.
  const frameNode: number[] = [];
  const frameEdge: number[] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    frameNode.push(root);
    frameEdge.push(0);
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (frameNode.length > 0) {
      const top = frameNode.length - 1;
      const v = frameNode[top];
      const out = edges[v];
      if (frameEdge[top] < out.length) {
        const w = out[frameEdge[top]++];
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          frameNode.push(w);
          frameEdge.push(0);
        } else if (onStack[w] && index[w] < low[v]) low[v] = index[w];
        continue;
      }
      frameNode.pop();
      frameEdge.pop();
      if (frameNode.length > 0) {
        const parent = frameNode[frameNode.length - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] === index[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        components.push(component);
      }
    }
  }
  return components;
}

/** Whether a component is a cycle: more than one node, or one node with an edge to itself. */
export function isCycle(component: readonly number[], edges: readonly (readonly number[])[]): boolean {
  return component.length > 1 || edges[component[0]].includes(component[0]);
}
